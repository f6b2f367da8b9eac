package translate

// saasTranslators returns the SaaS vendors' translators: Shopify, HubSpot
// and Jira.
func saasTranslators() []Translator {
	return []Translator{shopifyTranslator{}, hubSpotTranslator{}, jiraTranslator{}}
}
