package translate

// gatewayTranslators returns the gateway translators, tried before any
// vendor: a proxy's own error page stands in front of whatever vendor is
// behind it. Each recognises only its own pages (its headers and a body of
// its own), so the order matters only for safety: the most distinctive
// signatures first.
func gatewayTranslators() []Translator {
	return []Translator{
		cloudflareGateway{},
		cloudfrontGateway{},
		albGateway{},
		envoyGateway{},
		nginxGateway{},
	}
}
