package translate

import (
	"maps"
	"slices"
)

// The built-in translators, in the order the Set tries them. Each group
// lives in its own files.

// builtinGateways are tried before any vendor: a proxy's error page stands
// in front of whatever vendor is behind it.
func builtinGateways() []Translator { return gatewayTranslators() }

// builtinVendors are the vendor translators, matched by name, host or
// recognition.
func builtinVendors() []Translator {
	return slices.Concat(
		devToolsTranslators(),   // Stripe, GitHub, Slack, OpenAI, Anthropic
		cloudTranslators(),      // AWS, Twilio, SendGrid
		enterpriseTranslators(), // Google, Microsoft Graph, Salesforce, PayPal
		saasTranslators(),       // Shopify, HubSpot, Jira
	)
}

// builtinGenerics read what no vendor claims: RFC 9457 problem+json, the
// common JSON error shapes, GraphQL errors, plain text, empty bodies.
func builtinGenerics() []Translator {
	return slices.Concat(graphQLTranslators(), genericTranslators())
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
