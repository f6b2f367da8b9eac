package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Alphabets of the synthetic tokens, beyond those of clean_fuzz_test.go.
const (
	digitChars    = "0123456789"
	lowerNumChars = lowerChars + digitChars
	hexUpperChars = "0123456789ABCDEF"
	lettersChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// providerCase is a synthetic token of one provider's format: text holds
// it (a URL for webhooks), secret is the part that must go, family names
// the placeholder.
type providerCase struct {
	provider, family string
	make             func(g gen) (text, secret string)
}

// tok is a case whose whole text is the secret.
func tok(provider, family string, f func(g gen) string) providerCase {
	return providerCase{provider, family, func(g gen) (string, string) { s := f(g); return s, s }}
}

// only returns n random bytes of alphabet; unlike str, it never adds a
// byte of another class.
func (g gen) only(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// uuid returns a random lower-case UUID.
func (g gen) uuid() string {
	h := func(n int) string { return g.only(hexChars, n) }
	return h(8) + "-" + h(4) + "-" + h(4) + "-" + h(4) + "-" + h(12)
}

// providerCases are tokens built from the providers' documented formats,
// written out here independently of the rules in secret_providers_*.go.
var providerCases = []providerCase{
	// AI and data.
	tok("OpenAI project key", "openai-key", func(g gen) string { return "sk-proj-" + g.str(urlChars, 48) }),
	tok("Anthropic key", "anthropic-key", func(g gen) string { return "sk-ant-api03-" + g.str(urlChars, 93) + "AA" }),
	tok("Google API key", "google-api-key", func(g gen) string { return "AIza" + g.str(urlChars, 35) }),
	tok("Hugging Face token", "huggingface-token", func(g gen) string { return "hf_" + g.str(lettersChars, 34) }),
	tok("Hugging Face org token", "huggingface-token", func(g gen) string { return "api_org_" + g.str(lettersChars, 34) }),
	tok("Perplexity key", "perplexity-key", func(g gen) string { return "pplx-" + g.str(alnumChars, 48) }),
	tok("Groq key", "groq-key", func(g gen) string { return "gsk_" + g.str(alnumChars, 52) }),
	tok("Replicate token", "replicate-token", func(g gen) string { return "r8_" + g.str(alnumChars, 37) }),
	tok("xAI key", "xai-key", func(g gen) string { return "xai-" + g.str(alnumChars, 80) }),
	tok("LangSmith key", "langsmith-key", func(g gen) string { return "lsv2_pt_" + g.only(hexChars, 32) + "_" + g.only(hexChars, 10) }),
	tok("Pinecone key", "pinecone-key", func(g gen) string { return "pcsk_" + g.str(alnumChars, 5) + "_" + g.str(alnumChars, 60) }),
	tok("Databricks token", "databricks-token", func(g gen) string { return "dapi" + g.only(hexChars, 32) }),
	// Cloud and infrastructure.
	tok("AWS access key id", "aws-access-key-id", func(g gen) string { return "AKIA" + g.str(upperDigits, 16) }),
	tok("AWS STS key id", "aws-access-key-id", func(g gen) string { return "ASIA" + g.str(upperDigits, 16) }),
	tok("Amazon Bedrock key", "aws-bedrock-key", func(g gen) string { return "ABSK" + g.str(b64Chars, 120) }),
	tok("Google OAuth client secret", "gcp-oauth-secret", func(g gen) string { return "GOCSPX-" + g.str(urlChars, 28) }),
	tok("Google OAuth access token", "gcp-access-token", func(g gen) string { return "ya29." + g.str(urlChars, 100) }),
	tok("DigitalOcean token", "digitalocean-token", func(g gen) string { return "dop_v1_" + g.only(hexChars, 64) }),
	tok("Alibaba access key id", "alibaba-access-key-id", func(g gen) string { return "LTAI" + g.str(alnumChars, 20) }),
	tok("Heroku key", "heroku-key", func(g gen) string { return "HRKU-AA" + g.str(urlChars, 58) }),
	tok("Fly.io token", "flyio-token", func(g gen) string { return "fo1_" + g.str(urlChars, 43) }),
	tok("Cloudflare origin CA key", "cloudflare-origin-ca-key", func(g gen) string {
		return "v1.0-" + g.only(hexChars, 24) + "-" + g.only(hexChars, 146)
	}),
	tok("Vault token", "vault-token", func(g gen) string { return "hvs." + g.str(urlChars, 95) }),
	tok("Pulumi token", "pulumi-token", func(g gen) string { return "pul-" + g.only(hexChars, 40) }),
	tok("Doppler token", "doppler-token", func(g gen) string { return "dp.pt." + g.str(alnumChars, 43) }),
	tok("Scalingo token", "scalingo-token", func(g gen) string { return "tk-us-" + g.str(urlChars, 48) }),
	tok("PlanetScale password", "planetscale-token", func(g gen) string { return "pscale_pw_" + g.str(urlChars, 43) }),
	tok("Defined Networking key", "defined-networking-key", func(g gen) string {
		return "dnkey-" + g.str(lowerNumChars, 26) + "-" + g.str(lowerNumChars, 52)
	}),
	tok("Octopus Deploy key", "octopus-deploy-key", func(g gen) string { return "API-" + g.str(upperDigits, 26) }),
	tok("OpenShift token", "openshift-token", func(g gen) string { return "sha256~" + g.str(urlChars, 43) }),
	tok("Yandex API key", "yandex-key", func(g gen) string { return "AQVN" + g.str(urlChars, 36) }),
	tok("Supabase token", "supabase-token", func(g gen) string { return "sbp_" + g.only(hexChars, 40) }),
	tok("Render key", "render-key", func(g gen) string { return "rnd_" + g.str(alnumChars, 32) }),
	tok("Tailscale key", "tailscale-key", func(g gen) string {
		return "tskey-auth-" + g.str(alnumChars, 10) + "-" + g.str(alnumChars, 30)
	}),
	tok("ClickHouse key", "clickhouse-key", func(g gen) string { return "4b1d" + g.str(alnumChars, 38) }),
	tok("age secret key", "age-secret-key", func(g gen) string { return "AGE-SECRET-KEY-1" + g.str(upperDigits, 58) }),
	tok("1Password service account", "1password-token", func(g gen) string { return "ops_eyJ" + g.str(b64Chars, 260) }),
	tok("1Password secret key", "1password-secret-key", func(g gen) string {
		u := func(n int) string { return g.str(upperDigits, n) }
		return "A3-" + u(6) + "-" + u(11) + "-" + u(5) + "-" + u(5) + "-" + u(5)
	}),
	tok("Azure AD client secret", "azure-client-secret", func(g gen) string {
		return g.str(alnumChars, 3) + g.str(digitChars, 1) + "Q~" + g.str(alnumChars, 34)
	}),
	tok("Terraform Cloud token", "terraform-token", func(g gen) string {
		return g.str(alnumChars, 14) + ".atlasv1." + g.str(urlChars, 67)
	}),
	// Code hosting, registries and developer tools.
	tok("GitHub PAT", "github-token", func(g gen) string { return "ghp_" + g.str(alnumChars, 36) }),
	tok("GitLab PAT", "gitlab-token", func(g gen) string { return "glpat-" + g.str(urlChars, 20) }),
	tok("GitLab runner token", "gitlab-token", func(g gen) string { return "glrt-" + g.str(urlChars, 20) }),
	tok("npm token", "npm-token", func(g gen) string { return "npm_" + g.str(alnumChars, 36) }),
	tok("PyPI token", "pypi-token", func(g gen) string { return "pypi-AgEIcHlwaS5vcmc" + g.str(urlChars, 70) }),
	tok("RubyGems key", "rubygems-token", func(g gen) string { return "rubygems_" + g.only(hexChars, 48) }),
	tok("Clojars token", "clojars-token", func(g gen) string { return "CLOJARS_" + g.str(alnumChars, 60) }),
	tok("NuGet key", "nuget-key", func(g gen) string { return "oy2" + g.str(lowerNumChars, 43) }),
	tok("Docker Hub PAT", "docker-token", func(g gen) string { return "dckr_pat_" + g.str(urlChars, 27) }),
	tok("Artifactory key", "artifactory-key", func(g gen) string { return "AKCp" + g.str(alnumChars, 69) }),
	tok("JFrog reference token", "artifactory-token", func(g gen) string { return "cmVmd" + g.str(alnumChars, 59) }),
	tok("Atlassian API token", "atlassian-token", func(g gen) string { return "ATATT3" + g.str(urlChars, 186) }),
	tok("Bitbucket app password", "bitbucket-token", func(g gen) string { return "ATBB" + g.str(alnumChars, 32) }),
	tok("Sourcegraph token", "sourcegraph-token", func(g gen) string {
		return "sgp_" + g.only(hexChars, 16) + "_" + g.only(hexChars, 40)
	}),
	tok("Sentry user token", "sentry-token", func(g gen) string { return "sntryu_" + g.only(hexChars, 64) }),
	tok("Sentry org token", "sentry-token", func(g gen) string {
		return "sntrys_eyJ" + g.str(b64Chars, 80) + "_" + g.str(b64Chars, 43)
	}),
	tok("Grafana cloud token", "grafana-token", func(g gen) string { return "glc_" + g.str(b64Chars, 40) }),
	tok("Grafana service account", "grafana-token", func(g gen) string {
		return "glsa_" + g.str(alnumChars, 32) + "_" + g.only(hexChars, 8)
	}),
	tok("Postman key", "postman-key", func(g gen) string { return "PMAK-" + g.only(hexChars, 24) + "-" + g.only(hexChars, 34) }),
	tok("ReadMe key", "readme-key", func(g gen) string { return "rdme_" + g.str(lowerNumChars, 70) }),
	tok("Linear key", "linear-key", func(g gen) string { return "lin_api_" + g.str(alnumChars, 40) }),
	tok("SonarQube token", "sonarqube-token", func(g gen) string { return "squ_" + g.only(hexChars, 40) }),
	tok("CircleCI token", "circleci-token", func(g gen) string {
		return "CCIPAT_" + g.str(alnumChars, 22) + "_" + g.only(hexChars, 40)
	}),
	tok("Figma token", "figma-token", func(g gen) string { return "figd_" + g.str(urlChars, 40) }),
	tok("Harness token", "harness-token", func(g gen) string {
		return "pat." + g.str(urlChars, 22) + "." + g.str(alnumChars, 24) + "." + g.str(alnumChars, 20)
	}),
	tok("Prefect key", "prefect-key", func(g gen) string { return "pnu_" + g.str(alnumChars, 36) }),
	tok("Infracost token", "infracost-token", func(g gen) string { return "ico-" + g.str(alnumChars, 32) }),
	tok("42 intranet secret", "intra42-secret", func(g gen) string { return "s-s4t2ud-" + g.only(hexChars, 64) }),
	tok("SettleMint token", "settlemint-token", func(g gen) string { return "sm_pat_" + g.str(alnumChars, 16) }),
	tok("Authress key", "authress-key", func(g gen) string {
		return "sc_" + g.str(alnumChars, 10) + "." + g.str(alnumChars, 5) + ".acc_" + g.str(lowerNumChars, 20) + "." + g.str(b64Chars, 40)
	}),
	// Messaging, e-mail and webhooks.
	tok("Slack bot token", "slack-token", func(g gen) string {
		return "xoxb-" + g.str(digitChars, 12) + "-" + g.str(digitChars, 13) + "-" + g.str(alnumChars, 24)
	}),
	tok("Slack app token", "slack-token", func(g gen) string {
		return "xapp-1-A0" + g.str(upperDigits, 9) + "-" + g.str(digitChars, 13) + "-" + g.only(hexChars, 64)
	}),
	tok("Slack config token", "slack-token", func(g gen) string { return "xoxe.xoxp-1-" + g.str(alnumChars, 163) }),
	{"Slack webhook", "slack-webhook", func(g gen) (string, string) {
		path := "T" + g.str(upperDigits, 10) + "/B" + g.str(upperDigits, 10) + "/" + g.str(alnumChars, 24)
		return "https://hooks.slack.com/services/" + path, path
	}},
	{"Teams webhook", "teams-webhook", func(g gen) (string, string) {
		path := g.uuid() + "@" + g.uuid() + "/IncomingWebhook/" + g.only(hexChars, 32) + "/" + g.uuid()
		return "https://contoso.webhook.office.com/webhookb2/" + path, path
	}},
	{"Discord webhook", "discord-webhook", func(g gen) (string, string) {
		path := g.str(digitChars, 18) + "/" + g.str(urlChars, 68)
		return "https://discord.com/api/webhooks/" + path, path
	}},
	tok("Telegram bot token", "telegram-bot-token", func(g gen) string {
		return g.str("123456789", 1) + g.str(digitChars, 9) + ":A" + g.str(urlChars, 34)
	}),
	tok("Twilio account SID", "twilio-account-sid", func(g gen) string { return "AC" + g.only(hexChars, 32) }),
	tok("Twilio API key", "twilio-api-key", func(g gen) string { return "SK" + g.only(hexChars, 32) }),
	tok("SendGrid key", "sendgrid-key", func(g gen) string { return "SG." + g.str(urlChars, 22) + "." + g.str(urlChars, 43) }),
	tok("Brevo key", "brevo-key", func(g gen) string { return "xkeysib-" + g.only(hexChars, 64) + "-" + g.str(alnumChars, 16) }),
	tok("Mailgun key", "mailgun-key", func(g gen) string { return "key-" + g.only(hexChars, 32) }),
	tok("Mailchimp key", "mailchimp-key", func(g gen) string { return g.only(hexChars, 32) + "-us" + g.str(digitChars, 2) }),
	// Payments and commerce.
	tok("Stripe live key", "stripe-key", func(g gen) string { return "sk_live_" + g.str(alnumChars, 24) }),
	tok("Stripe restricted key", "stripe-key", func(g gen) string { return "rk_test_" + g.str(alnumChars, 24) }),
	tok("Stripe webhook secret", "stripe-webhook-secret", func(g gen) string { return "whsec_" + g.str(alnumChars, 32) }),
	tok("Square access token", "square-token", func(g gen) string { return "sq0atp-" + g.str(urlChars, 22) }),
	tok("Square production token", "square-token", func(g gen) string { return "EAAA" + g.str(urlChars, 60) }),
	tok("Square secret", "square-secret", func(g gen) string { return "sq0csp-" + g.str(urlChars, 43) }),
	tok("Shopify access token", "shopify-token", func(g gen) string { return "shpat_" + g.only(hexChars, 32) }),
	tok("Flutterwave secret key", "flutterwave-key", func(g gen) string { return "FLWSECK_TEST-" + g.only(hexChars, 32) + "-X" }),
	tok("Duffel token", "duffel-token", func(g gen) string { return "duffel_test_" + g.str(urlChars, 43) }),
	tok("EasyPost key", "easypost-key", func(g gen) string { return "EZAK" + g.str(alnumChars, 54) }),
	tok("Shippo token", "shippo-token", func(g gen) string { return "shippo_live_" + g.only(hexChars, 40) }),
	tok("Razorpay key", "razorpay-key", func(g gen) string { return "rzp_live_" + g.str(alnumChars, 14) }),
	tok("Plaid access token", "plaid-token", func(g gen) string { return "access-sandbox-" + g.uuid() }),
	tok("Braintree token", "braintree-token", func(g gen) string {
		return "access_token$production$" + g.str(lowerNumChars, 16) + "$" + g.only(hexChars, 32)
	}),
	// Other software as a service.
	tok("Notion token", "notion-token", func(g gen) string { return "ntn_" + g.str(digitChars, 11) + g.str(alnumChars, 35) }),
	tok("Airtable token", "airtable-token", func(g gen) string { return "pat" + g.str(alnumChars, 14) + "." + g.only(hexChars, 64) }),
	tok("Contentful token", "contentful-token", func(g gen) string { return "CFPAT-" + g.str(urlChars, 43) }),
	tok("Typeform token", "typeform-token", func(g gen) string { return "tfp_" + g.str(urlChars, 59) }),
	tok("Mapbox secret token", "mapbox-token", func(g gen) string {
		return "sk.eyJ1Ijoi" + g.str(urlChars, 60) + "." + g.str(urlChars, 22)
	}),
	tok("Dynatrace token", "dynatrace-token", func(g gen) string {
		return "dt0c01." + g.str(upperDigits, 24) + "." + g.str(alnumChars, 64)
	}),
	tok("New Relic key", "newrelic-key", func(g gen) string { return "NRAK-" + g.str(upperDigits, 27) }),
	tok("Adobe client secret", "adobe-secret", func(g gen) string { return "p8e-" + g.str(alnumChars, 32) }),
	tok("Frame.io token", "frameio-token", func(g gen) string { return "fio-u-" + g.str(urlChars, 64) }),
	tok("Beamer token", "beamer-token", func(g gen) string { return "b_" + g.str(urlChars, 44) }),
	tok("Facebook page token", "facebook-token", func(g gen) string { return "EAAC" + g.str(alnumChars, 120) }),
	tok("Facebook app token", "facebook-token", func(g gen) string {
		return g.str("123456789", 1) + g.str(digitChars, 15) + "|" + g.str(urlChars, 27)
	}),
	tok("Twitter bearer token", "twitter-bearer-token", func(g gen) string {
		return strings.Repeat("A", 22) + g.str(alnumChars, 80)
	}),
	tok("MaxMind license key", "maxmind-license-key", func(g gen) string {
		return g.str(alnumChars, 6) + "_" + g.str(alnumChars, 29) + "_mmk"
	}),
}

// TestProviderTokens checks that every provider's token is redacted alone
// in a sentence, with no key naming it, as its typed placeholder, with the
// prefilter and without, and that cleaning again changes nothing.
func TestProviderTokens(t *testing.T) {
	providers := map[string]bool{}
	for _, c := range providerCases {
		providers[strings.Fields(c.provider)[0]] = true
	}
	require.GreaterOrEqual(t, len(providers), 60, "providers covered")
	on, off := bothModes(testOpts...)
	for _, c := range providerCases {
		for seed := uint64(1); seed <= 20; seed++ {
			text, secret := c.make(newGen(seed))
			in := "the upstream rejected " + text + ", try again"
			out, rep := on.Clean(in)
			outOff, _ := off.Clean(in)
			require.Equal(t, out, outOff, "%s: prefilter on and off differ", c.provider)
			assert.NotContains(t, out, secret, "%s: %q", c.provider, in)
			assert.Contains(t, out, "[REDACTED:"+c.family+"]", "%s: %q", c.provider, in)
			assert.True(t, strings.HasPrefix(out, "the upstream rejected "), "%s: %q", c.provider, out)
			assert.True(t, strings.HasSuffix(out, ", try again"), "%s: %q", c.provider, out)
			assert.Equal(t, 1, rep.Count(KindSecret), "%s: %q", c.provider, out)
			again, _ := on.Clean(out)
			assert.Equal(t, out, again, "%s: not idempotent", c.provider)
		}
	}
}

// TestTokenStandIns checks that token shapes filled with stand-ins stay
// when their prefix does not say "live credential": repeated letters,
// counting sequences and AWS's documentation marker. Live prefixes are
// TestLivePrefixIgnoresStandIns's.
func TestTokenStandIns(t *testing.T) {
	for _, in := range []string{
		"ASIAIOSFODNN7EXAMPLE",
		"AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
		"xoxe-1-xxxxxxxxxxxxxxxxxxxxxxxx",
		"npm_0000000000000000000000000000000000000",
		"sk_test_abcdefghijklmnopqrstuvwx",
		"hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			out, rep := s.Clean("token " + in + " in the docs")
			assert.Equal(t, "token "+in+" in the docs", out)
			assert.Zero(t, rep.Count(KindSecret), in)
		}
	}
}

// TestTokenBoundaries checks where a token may start and end: not inside
// a longer word or file name, and not when its run is longer than the
// format allows.
func TestTokenBoundaries(t *testing.T) {
	g := newGen(3)
	for _, in := range []string{
		"video_box.ico-" + g.only(hexChars, 32) + ".png",               // a file name, not an Infracost token
		"https://example.notion.site/API-" + g.only(hexUpperChars, 32), // 32, not Octopus's 26
		"AKIA" + g.str(upperDigits, 20),                                // too long for an AWS key id
		"dapi" + g.only(hexChars, 30) + "g5",                           // not hex to its end
		"- (id)hf_requiredCharacteristicTypesForDisplayMetadata;",      // an identifier
		"https://indieweb.org/images/2018-250-xoxo-indieweb-1.jpg",
		"SetSysctl = \"1vu4slo7hn1vb4qyqd2niyiw\"",
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			out, rep := s.Clean(in)
			assert.Equal(t, in, out)
			assert.Zero(t, rep.Count(KindSecret), in)
		}
	}
}

// TestTokenRuleShapes checks the invariants the token matchers rely on.
func TestTokenRuleShapes(t *testing.T) {
	for _, r := range tokenRuleList() {
		require.LessOrEqual(t, len(r.parts), maxTokenParts, r.prefix)
		for k, pt := range r.parts {
			if pt.lit != "" || k+1 == len(r.parts) {
				continue
			}
			next := r.parts[k+1]
			require.NotEmpty(t, next.lit, "%s: a run must be followed by a literal", r.prefix)
			require.False(t, inAlphabet(pt.alpha, next.lit[0]), "%s: run %d swallows its literal", r.prefix, k)
		}
	}
	for _, r := range infixRules() {
		n := len(r.infix)
		for _, pt := range append(append([]tokenPart(nil), r.before...), r.after...) {
			n += len(pt.lit) + pt.min
			if pt.lit == "" {
				require.Positive(t, pt.max, "%s: infix parts are bounded", r.infix)
			}
		}
		require.GreaterOrEqual(t, n, minInfixTokenLen, r.infix)
	}
}
