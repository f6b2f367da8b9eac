package translate

import "slices"

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
