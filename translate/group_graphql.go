package translate

// graphQLTranslators returns the generic GraphQL translator, tried before
// the other generic translators so that a GraphQL error body is read as
// GraphQL rather than as a common JSON error shape.
func graphQLTranslators() []Translator { return []Translator{graphQLTranslator{}} }
