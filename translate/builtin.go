package translate

import "maps"

// The built-in translators, in the order the Set tries them.

// builtinGateways are tried before any vendor: a proxy's own error page
// stands in front of whatever vendor is behind it. Each recognises only its
// own pages (its headers and a body of its own), so the order matters only
// for safety: the most distinctive signatures first.
func builtinGateways() []Translator {
	return []Translator{cloudflareGateway{}, cloudfrontGateway{}, albGateway{}, envoyGateway{}, nginxGateway{}}
}

// builtinVendors are the vendor translators, matched by name, host or
// recognition. Each recognises only its own responses, so their order does
// not matter.
func builtinVendors() []Translator {
	return []Translator{
		stripeTranslator{}, githubTranslator{}, slackTranslator{}, openAITranslator{}, anthropicTranslator{},
		awsTranslator{}, twilioTranslator{}, sendgridTranslator{},
		googleTranslator{}, msGraphTranslator{}, salesforceTranslator{}, payPalTranslator{},
		shopifyTranslator{}, hubSpotTranslator{}, jiraTranslator{},
	}
}

// builtinGenerics read what no vendor claims, tried in this order: GraphQL
// errors (before the common JSON shapes, which would read them less well),
// RFC 9457 problem details, the standard OAuth 2.0 errors, the common JSON
// error shapes, text (HTML, XML, plain), and a fallback that accepts every
// failure, so that a response of status 400 or more always gives an
// outcome. None but GraphQL reads a 2xx: a success with an error-like body
// is still a success. All but the OAuth one have Vendor() "": the status
// and explicit retry advice decide their class.
func builtinGenerics() []Translator {
	return []Translator{graphQLTranslator{}, problemGeneric{}, oauthGeneric{}, jsonGeneric{}, textGeneric{}, fallbackGeneric{}}
}

// VendorCodes returns a copy of the code table of the built-in translator
// named vendor ("google", "stripe"): vendor code → toolerr code. It is nil
// when no built-in translator has that name. The mappers of SDK errors use
// it to register the same table a Set registers, so that one table decides
// a vendor's codes however they reach the classifier.
func VendorCodes(vendor string) map[string]string {
	for _, t := range builtinVendors() {
		if t.Vendor() == vendor {
			return maps.Clone(t.Codes())
		}
	}
	return nil
}
