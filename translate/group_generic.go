package translate

// genericTranslators returns the generic translators, tried last and in
// this order: RFC 9457 problem details, the standard OAuth 2.0 errors, the
// common JSON error shapes, text (HTML, XML, plain), and a fallback that
// accepts every failure, so that a response of status 400 or more always
// gives an outcome. None reads a 2xx: a success with an error-like body is
// still a success. All but the OAuth one have Vendor() "": the status and
// explicit retry advice decide their class.
func genericTranslators() []Translator {
	return []Translator{
		problemGeneric{},
		oauthGeneric{},
		jsonGeneric{},
		textGeneric{},
		fallbackGeneric{},
	}
}
