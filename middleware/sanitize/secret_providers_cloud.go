package sanitize

// Token formats of cloud, hosting and infrastructure providers, from the
// providers' documentation:
//
//   - AWS access key ids: a four-letter type prefix (AKIA, ASIA, AGPA, ...)
//     and 16 upper-case letters and digits; Bedrock API keys "ABSK" and
//     long base64, or "bedrock-api-key-" and the base64 of
//     "bedrock.amazonaws.com";
//   - Google Cloud: OAuth client secrets "GOCSPX-" and 28; OAuth access
//     tokens "ya29.";
//   - DigitalOcean: "dop_v1_", "doo_v1_", "dor_v1_" and 64 hex digits;
//   - Alibaba Cloud access key ids: "LTAI" and 20 letters and digits;
//   - Heroku: "HRKU-AA" and 58; Fly.io: "fo1_" and 43, "fm1a_", "fm1r_",
//     "fm2_" macaroons in base64;
//   - Cloudflare origin CA keys: "v1.0-", 24 hex digits, '-', 146 more;
//   - HashiCorp Vault service and batch tokens: "hvs.", "hvb.", and legacy
//     service tokens "s." and 24 letters and digits;
//   - Pulumi "pul-" and 40 hex digits; Doppler "dp.pt.", "dp.st.",
//     "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."; Scalingo "tk-us-" and
//     48; PlanetScale "pscale_pw_", "pscale_tkn_", "pscale_oauth_";
//   - Defined Networking "dnkey-"; Octopus Deploy "API-" and 26 upper-case
//     letters and digits; OpenShift user tokens "sha256~" and 43;
//   - Yandex Cloud: static key ids "YC" and 38, API keys "AQVN", IAM
//     tokens "t1.";
//   - Supabase "sbp_" and 40 hex digits, "sb_secret_"; Render "rnd_";
//     Tailscale "tskey-";
//   - ClickHouse Cloud secret keys "4b1d" and 38 letters and digits;
//   - age secret keys "AGE-SECRET-KEY-1" and 58 bech32 letters;
//     1Password service account tokens "ops_eyJ" and secret keys "A3-".
func cloudTokens() []tokenFamily {
	return []tokenFamily{
		fam("aws-access-key-id", pre("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"),
			fixed(alphaUpperNum, 16)),
		fam("aws-access-key-id", pre("A3T"), fixed(alphaUpperNum, 17)),
		fam("aws-bedrock-key", pre("ABSK"), atLeast(alphaBase64, 100)),
		fam("aws-bedrock-key", pre("bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"), atLeast(alphaBase64, 0)),
		fam("gcp-oauth-secret", pre("GOCSPX-"), fixed(alphaURL, 28)),
		fam("gcp-access-token", pre("ya29."), atLeast(alphaURL, 30)),
		fam("digitalocean-token", pre("dop_v1_", "doo_v1_", "dor_v1_"), fixed(alphaLowerHex, 64)),
		fam("alibaba-access-key-id", pre("LTAI"), fixed(alphaAlnum, 20)).mixedCase(),
		fam("heroku-key", pre("HRKU-AA"), fixed(alphaURL, 58)),
		fam("flyio-token", pre("fo1_"), fixed(alphaURL, 43)),
		fam("flyio-token", pre("fm1a_", "fm1r_", "fm2_"), atLeast(alphaBase64, 100)),
		fam("cloudflare-origin-ca-key", pre("v1.0-"), fixed(alphaLowerHex, 24), lit("-"), fixed(alphaLowerHex, 146)),
		fam("vault-token", pre("hvs."), atLeast(alphaURL, 90)),
		fam("vault-token", pre("hvb."), atLeast(alphaURL, 138)),
		fam("vault-token", pre("s."), fixed(alphaAlnum, 24)).allClasses(),
		fam("pulumi-token", pre("pul-"), fixed(alphaLowerHex, 40)),
		fam("doppler-token", pre("dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."), atLeast(alphaAlnum, 40)),
		fam("scalingo-token", pre("tk-us-"), fixed(alphaURL, 48)),
		fam("planetscale-token", pre("pscale_pw_", "pscale_tkn_", "pscale_oauth_"), between(alphaURLDotEq, 32, 64)),
		fam("defined-networking-key", pre("dnkey-"), atLeast(alphaURLEq, 79)),
		fam("octopus-deploy-key", pre("API-"), fixed(alphaUpperNum, 26)).mixedCase(),
		fam("openshift-token", pre("sha256~"), fixed(alphaURL, 43)),
		fam("yandex-key", pre("YC"), fixed(alphaURL, 38)).mixedCase(),
		fam("yandex-key", pre("AQVN"), between(alphaURL, 35, 38)),
		fam("yandex-token", pre("t1."), atLeast(alphaURLEq, 10), lit("."), atLeast(alphaURLEq, 86)),
		fam("supabase-token", pre("sbp_"), fixed(alphaLowerHex, 40)),
		fam("supabase-key", pre("sb_secret_"), atLeast(alphaURL, 20)),
		fam("render-key", pre("rnd_"), atLeast(alphaAlnum, 30)).mixedCase(),
		fam("tailscale-key", pre("tskey-"), atLeast(alphaURL, 30)),
		fam("clickhouse-key", pre("4b1d"), fixed(alphaAlnum, 38)).mixedCase(),
		fam("age-secret-key", pre("AGE-SECRET-KEY-1"), fixed(alphaUpperNum, 58)),
		fam("1password-token", pre("ops_eyJ"), atLeast(alphaBase64, 200)),
		fam("1password-secret-key", pre("A3-"), between(alphaUpperNumDash, 36, 37)),
	}
}
