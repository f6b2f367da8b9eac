package sanitize

// Token formats of other software-as-a-service providers, from the
// providers' documentation:
//
//   - Notion integration tokens "ntn_" and 46, legacy "secret_" and 43;
//   - Airtable personal access tokens "pat", 14 letters and digits, '.',
//     64 hex digits;
//   - Contentful "CFPAT-"; Typeform "tfp_"; Mapbox "pk.eyJ", "sk.eyJ",
//     "tk.eyJ" tokens (base64 JSON, '.', a signature);
//   - Dynatrace "dt0c01." tokens: 24, '.', 64;
//   - New Relic user keys "NRAK-" and 27, browser keys "NRJS-" and 19 hex
//     digits, insert keys "NRII-" and 32;
//   - Adobe "p8e-" client secrets; Frame.io "fio-u-"; Beamer "b_" and 44;
//   - Facebook page and user access tokens "EAAC", "EAAM"; Twitter app
//     bearer tokens: 22 "A"s, then letters, digits and '%'.
func saasTokens() []tokenFamily {
	return []tokenFamily{
		fam("notion-token", pre("ntn_"), fixed(alphaAlnum, 46)),
		fam("notion-token", pre("secret_"), fixed(alphaAlnum, 43)).mixedCase(),
		fam("airtable-token", pre("pat"), fixed(alphaAlnum, 14), lit("."), fixed(alphaLowerHex, 64)),
		fam("contentful-token", pre("CFPAT-"), atLeast(alphaURL, 40)),
		fam("typeform-token", pre("tfp_"), atLeast(alphaURLDotEq, 40)),
		fam("mapbox-token", pre("pk.eyJ", "sk.eyJ", "tk.eyJ"), atLeast(alphaURL, 40), lit("."), atLeast(alphaURL, 16)),
		fam("dynatrace-token", pre("dt0c01."), fixed(alphaAlnum, 24), lit("."), fixed(alphaAlnum, 64)),
		fam("newrelic-key", pre("NRAK-"), fixed(alphaAlnum, 27)),
		fam("newrelic-key", pre("NRJS-"), fixed(alphaLowerHex, 19)),
		fam("newrelic-key", pre("NRII-"), fixed(alphaURL, 32)),
		fam("adobe-secret", pre("p8e-"), fixed(alphaAlnum, 32)),
		fam("frameio-token", pre("fio-u-"), fixed(alphaURLEq, 64)),
		fam("beamer-token", pre("b_"), fixed(alphaURLEq, 44)).mixedCase(),
		fam("facebook-token", pre("EAAC", "EAAM"), atLeast(alphaAlnum, 90)),
		fam("twitter-bearer-token", pre("AAAAAAAAAAAAAAAAAAAAA"), between(alphaAlnumPct, 50, 120)).mixedCase(),
	}
}
