package argcheck

import (
	"fmt"
	"slices"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// finding is one violation as the validator reported it, with what its
// repair and its wording need.
type finding struct {
	field   string         // JSON pointer of the offending value
	keyword string         // the schema keyword that failed
	reason  string         // declarative: "must be at most 100"
	allowed any            // what the schema accepts there; nil when nothing useful
	node    map[string]any // the schema at field, when known: bounds, enum, default
	got     any            // the value sent; nil for a missing property
	// renameFrom is set for a property the schema does not allow: its
	// suggestion is the name to move it to, not a value. object is the
	// schema of the object holding it.
	renameFrom bool
	object     map[string]any
	// askUser marks a value only the user can give: a missing or empty
	// one with no default.
	askUser bool
	// fix is the imperative repair, lower case, without the suggestion:
	// "set limit between 1 and 100".
	fix string
	// ask is what to ask the user when there is no repair, lower case:
	// "ask the user which reason applies: duplicate or fraudulent".
	ask string
	// suggestion, when has is true, is the derived value (or the new name
	// of a misspelt property).
	suggestion any
	has        bool
	// covered marks a missing property that the rename of a misspelt one
	// fills: its suggestion is that value, applied by the rename.
	covered bool
}

// findings flattens the validator's error tree into one finding per
// offending value and keyword, in the tree's order, without duplicates.
// args is the instance that was validated.
func (s *Schema) findings(verr *validator.ValidationError, args any) []finding {
	var out []finding
	var walk func(e *validator.ValidationError)
	walk = func(e *validator.ValidationError) {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
			if len(e.Causes) > 0 {
				for _, c := range e.Causes {
					walk(c)
				}
				return
			}
		case *kind.AnyOf, *kind.OneOf:
			// The branch the value meant, when one does: its violations.
			if b, ok := s.branchOf(e, args); ok {
				walk(b.cause)
				out = append(out, b.renames...)
				return
			}
		}
		out = append(out, s.leaf(e, args)...)
	}
	walk(verr)
	seen := make(map[string]bool, len(out))
	return slices.DeleteFunc(out, func(f finding) bool {
		k := f.field + "\x00" + f.keyword
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// leaf turns one leaf error into its findings: one, or one per missing or
// extra property.
func (s *Schema) leaf(e *validator.ValidationError, args any) []finding {
	loc := joinPointer(e.InstanceLocation)
	node := s.node(e.SchemaURL)
	got, _ := lookup(args, loc)
	f := finding{field: loc, node: node, got: got, keyword: keywordOf(e.ErrorKind)}
	name := displayName(loc)
	terms := userTerms(loc, node)
	f.ask = "ask the user for " + terms
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		return s.missing(loc, node, k.Missing, "is required")
	case *kind.DependentRequired:
		return s.missing(loc, node, k.Missing, "is required when "+k.Prop+" is present")
	case *kind.Dependency:
		return s.missing(loc, node, k.Missing, "is required when "+k.Prop+" is present")
	case *kind.AdditionalProperties:
		var out []finding
		names := propertyNames(node)
		for _, p := range k.Properties {
			field := child(loc, p)
			v, _ := lookup(args, field)
			g := finding{field: field, keyword: "additionalProperties", got: v, renameFrom: true, object: node,
				reason: "is not a property of this tool", fix: "remove " + displayName(field), ask: askUnknown(field, names)}
			if len(names) > 0 {
				g.allowed = names
			}
			out = append(out, g)
		}
		return out
	case *kind.FalseSchema:
		f.reason, f.fix = "is not allowed", "remove "+name
		f.ask = "ask the user where " + name + " belongs, as this tool does not take it"
	case *kind.Type:
		f.reason = "must be " + article(strings.Join(k.Want, " or ")) + ", not " + article(k.Got)
		f.allowed = map[string]any{"type": typeValue(k.Want)}
		f.fix = "send " + name + " as " + article(strings.Join(k.Want, " or "))
		f.ask = "ask the user for " + terms + " as " + article(strings.Join(k.Want, " or "))
		if loc == "" {
			f.ask = f.fix // the arguments' own shape is the caller's to fix
		}
	case *kind.Enum:
		f.reason, f.allowed = "must be one of allowed_values", deepCopy(k.Want) // the caller may change it; the schema must not
		f.fix = "set " + name + " to one of allowed_values"
		f.ask = askChoice(terms, k.Want)
	case *kind.Const:
		f.reason, f.allowed = "must be "+jsonText(k.Want), []any{deepCopy(k.Want)}
		f.fix = "set " + name + " to " + jsonText(k.Want)
		f.ask = "ask the user whether " + terms + " can be " + jsonText(k.Want)
	case *kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum, *kind.MultipleOf:
		b := boundsOf(node)
		f.allowed = b.allowed()
		f.reason, f.fix = b.reason(e.ErrorKind), b.fix(name, e.ErrorKind)
		f.ask = "ask the user which " + terms + " to use, " + strings.TrimPrefix(f.reason, "must be ")
	case *kind.MinLength:
		f.allowed = lengthBounds(node, "minLength", "maxLength")
		if s, ok := got.(string); ok && strings.TrimSpace(s) == "" {
			f.reason, f.fix, f.askUser = "is empty", "ask the user for "+name, true
		} else {
			f.reason = fmt.Sprintf("must be at least %d characters long", k.Want)
			f.fix = fmt.Sprintf("lengthen %s to at least %d characters", name, k.Want)
			f.ask = fmt.Sprintf("ask the user for %s of at least %d characters", terms, k.Want)
		}
	case *kind.MaxLength:
		f.allowed = lengthBounds(node, "minLength", "maxLength")
		f.reason = fmt.Sprintf("must be at most %d characters long", k.Want)
		f.fix = fmt.Sprintf("shorten %s to at most %d characters", name, k.Want)
		f.ask = fmt.Sprintf("ask the user how to shorten %s to at most %d characters", terms, k.Want)
	case *kind.Pattern:
		f.allowed = map[string]any{"pattern": k.Want}
		f.reason = "must match the pattern " + k.Want
		f.fix = "make " + name + " match the pattern " + k.Want
		f.ask = "ask the user for " + terms + " in the form " + k.Want
	case *kind.Format:
		f.allowed = map[string]any{"format": k.Want}
		f.reason = "must be " + formatNoun(k.Want)
		f.fix = "write " + name + " as " + formatNoun(k.Want)
		f.ask = "ask the user for " + terms + " as " + formatNoun(k.Want)
	case *kind.MinItems:
		f.allowed = lengthBounds(node, "minItems", "maxItems")
		f.reason = fmt.Sprintf("must have at least %d items", k.Want)
		f.fix = fmt.Sprintf("send at least %d items in %s", k.Want, name)
		f.ask = fmt.Sprintf("ask the user for at least %d items of %s", k.Want, terms)
	case *kind.MaxItems:
		f.allowed = lengthBounds(node, "minItems", "maxItems")
		f.reason = fmt.Sprintf("must have at most %d items", k.Want)
		f.fix = fmt.Sprintf("send at most %d items in %s", k.Want, name)
		f.ask = fmt.Sprintf("ask the user which %d items of %s to keep", k.Want, terms)
	case *kind.UniqueItems:
		f.reason = fmt.Sprintf("must not repeat an item (items %d and %d are equal)", k.Duplicates[0], k.Duplicates[1])
		f.fix = "remove the repeated items from " + name
		f.ask = "ask the user about the repeated items of " + terms
	case *kind.AnyOf:
		f.reason, f.fix = "must match at least one of the schemas it allows", "correct "+name+" against the tool's input schema"
		f.ask = "ask the user for " + terms + ", in one of the forms the input schema allows"
	case *kind.OneOf:
		f.reason, f.fix = "must match exactly one of the schemas it allows", "correct "+name+" against the tool's input schema"
		f.ask = "ask the user for " + terms + ", in exactly one of the forms the input schema allows"
	default:
		// The validator's own words, for kinds this package does not word.
		f.reason = e.ErrorKind.LocalizedString(message.NewPrinter(language.English))
		f.fix = "correct " + name + " against the tool's input schema"
	}
	if noRepair(node) {
		f.askUser, f.fix = true, "ask the user for "+name
	}
	return []finding{f}
}

// RepairKeyword is the schema keyword that turns repairs off for one
// value: with "x-toolerr-repair": false on a property's schema, its
// violations carry no suggested_value and the hint says to ask the user.
// Use it where the nearest valid value is not what the user meant: an
// amount over a balance, a weight over a limit, a date in the past.
const RepairKeyword = "x-toolerr-repair"

// noRepair reports whether node turns repairs off.
func noRepair(node map[string]any) bool {
	v, ok := node[RepairKeyword].(bool)
	return ok && !v
}

// missing returns one finding per missing property of the object at loc,
// whose schema is node.
func (s *Schema) missing(loc string, node map[string]any, names []string, reason string) []finding {
	out := make([]finding, 0, len(names))
	for _, m := range names {
		field := child(loc, m)
		p := s.property(node, m)
		f := finding{field: field, keyword: "required", node: p, reason: reason,
			fix: "ask the user for " + displayName(field), askUser: true, ask: "ask the user for " + userTerms(field, p)}
		if enum, ok := p["enum"].([]any); ok {
			f.allowed = deepCopy(enum)
			f.ask = askChoice(userTerms(field, p), enum)
		}
		out = append(out, f)
	}
	return out
}

// keywordOf names the keyword of an error kind, for deduplication.
func keywordOf(k validator.ErrorKind) string {
	if path := k.KeywordPath(); len(path) > 0 {
		return path[0]
	}
	return fmt.Sprintf("%T", k)
}

// displayName is how a hint names the value at pointer p: "limit" at the
// top level, "items/2/sku" deeper, "the arguments" for the whole.
func displayName(p string) string {
	if p == "" {
		return "the arguments"
	}
	return strings.TrimPrefix(p, "/")
}

// article puts "a" or "an" before a JSON type name.
func article(t string) string {
	switch t {
	case "integer", "object", "array", "integer or null", "object or null", "array or null":
		return "an " + t
	}
	return "a " + t
}

// typeValue is the type keyword's value: one name or the list.
func typeValue(want []string) any {
	if len(want) == 1 {
		return want[0]
	}
	return want
}

// formatNoun describes a format for reasons and hints.
func formatNoun(format string) string {
	switch format {
	case "date":
		return "a date, YYYY-MM-DD"
	case "date-time":
		return "a date-time with a time zone, such as 2026-03-14T09:30:00Z"
	case "time":
		return "a time with a time zone, such as 09:30:00Z"
	case "email":
		return "an email address"
	case "uri":
		return "an absolute URI"
	case "uuid":
		return "a UUID"
	}
	return "a valid " + format
}

// propertyNames returns the names the object schema node declares, sorted.
func propertyNames(node map[string]any) []string {
	props, _ := node["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// lengthBounds returns the node's lower and upper keywords that are set.
func lengthBounds(node map[string]any, lower, upper string) map[string]any {
	out := map[string]any{}
	for _, k := range []string{lower, upper} {
		if v, ok := node[k]; ok {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
