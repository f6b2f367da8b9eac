package translate

import "maps"

// The built-in translators, one row each, in the order the Set tries
// them: the name (a vendor's codes' scope and the upstream.vendor of its
// errors), the API host suffixes, the recognition of a response of unknown
// host, the reading of a response into an outcome, and the code table
// registered with the classifier. A row is a [Vendor], the Translator an
// in-house API is written as.

// builtinGateways are tried before any vendor: a proxy's own error page
// stands in front of whatever vendor is behind it. Each recognises only its
// own pages (its headers and a body of its own), so the order matters only
// for safety: the most distinctive signatures first.
func builtinGateways() []Translator {
	return translators([]*Vendor{
		{Name: "cloudflare", Recognize: cloudflareRecognizes, Parse: cloudflareTranslate, CodeTable: cloudflareCodeTable()},
		{Name: "cloudfront", Recognize: cloudfrontRecognizes, Parse: cloudfrontTranslate},
		{Name: "aws-alb", Recognize: albRecognizes, Parse: albTranslate},
		{Name: "envoy", Recognize: envoyRecognizes, Parse: envoyTranslate},
		{Name: "nginx", Recognize: nginxRecognizes, Parse: nginxTranslate},
	})
}

// builtinVendors are the vendor translators, matched by name, host or
// recognition. Each recognises only its own responses, so their order does
// not matter.
func builtinVendors() []Translator {
	return translators([]*Vendor{
		{Name: "stripe", HostNames: []string{"api.stripe.com", "files.stripe.com"}, Recognize: stripeRecognizes, Parse: stripeTranslate, CodeTable: stripeTable},
		{Name: "github", HostNames: []string{"api.github.com", "uploads.github.com"}, Recognize: githubRecognizes, Parse: githubTranslate, CodeTable: githubCodes},
		{Name: "slack", HostNames: []string{"slack.com", "api.slack.com", "hooks.slack.com"}, Recognize: slackRecognizes, Parse: slackTranslate, CodeTable: slackCodes},
		{Name: "openai", HostNames: []string{"api.openai.com"}, Recognize: openAIRecognizes, Parse: openAITranslate, CodeTable: openAICodes},
		{Name: "anthropic", HostNames: []string{"api.anthropic.com"}, Recognize: anthropicRecognizes, Parse: anthropicTranslate, CodeTable: anthropicCodes},
		{Name: "aws", HostNames: awsHosts, Recognize: awsRecognizes, Parse: awsTranslate, CodeTable: awsCodes},
		{Name: "twilio", HostNames: twilioHosts, Recognize: twilioRecognizes, Parse: twilioTranslate, CodeTable: twilioCodes},
		{Name: "sendgrid", HostNames: sendgridHosts, Recognize: sendgridRecognizes, Parse: sendgridTranslate, CodeTable: sendgridCodes},
		{Name: "google", HostNames: []string{"googleapis.com"}, Recognize: googleRecognizes, Parse: googleTranslate, CodeTable: googleCodes},
		{Name: "msgraph", HostNames: []string{"graph.microsoft.com"}, Recognize: msGraphRecognizes, Parse: msGraphTranslate, CodeTable: msGraphCodes},
		{Name: "salesforce", HostNames: []string{"salesforce.com", "force.com", "my.salesforce.com", "salesforce-sites.com"}, Recognize: salesforceRecognizes, Parse: salesforceTranslate, CodeTable: salesforceCodes},
		{Name: "paypal", HostNames: []string{"api.paypal.com", "api-m.paypal.com", "api.sandbox.paypal.com", "api-m.sandbox.paypal.com"}, Recognize: payPalRecognizes, Parse: payPalTranslate, CodeTable: payPalCodes},
		{Name: "shopify", HostNames: []string{".myshopify.com", "shopify.com"}, Recognize: shopifyRecognizes, Parse: shopifyTranslate, CodeTable: shopifyCodes},
		{Name: "hubspot", HostNames: []string{"api.hubapi.com", "api.hubspot.com"}, Recognize: hubSpotRecognizes, Parse: hubSpotTranslate, CodeTable: hubSpotCodes},
		{Name: "jira", HostNames: []string{".atlassian.net"}, Recognize: jiraRecognizes, Parse: jiraTranslate, CodeTable: jiraCodes},
	})
}

// builtinGenerics read what no vendor claims, tried in this order: GraphQL
// errors (before the common JSON shapes, which would read them less well),
// RFC 9457 problem details, the standard OAuth 2.0 errors, the common JSON
// error shapes, text (HTML, XML, plain), and a fallback that accepts every
// failure, so that a response of status 400 or more always gives an
// outcome. None but GraphQL reads a 2xx: a success with an error-like body
// is still a success. None recognises a response: they are tried in turn.
// All but the OAuth one have no name: the status and explicit retry advice
// decide their class.
func builtinGenerics() []Translator {
	return translators([]*Vendor{
		{Parse: graphQLTranslate},
		{Parse: problemGenericTranslate},
		{Name: oauthVendor, Parse: oauthGenericTranslate, CodeTable: oauthCodes},
		{Parse: jsonGenericTranslate},
		{Parse: textGenericTranslate},
		{Parse: fallbackGenericTranslate},
	})
}

// translators returns rows as Translators.
func translators(rows []*Vendor) []Translator {
	ts := make([]Translator, len(rows))
	for i, r := range rows {
		ts[i] = r
	}
	return ts
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
