package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// benignTexts are identifiers, addresses and words that look a little like
// secrets and must survive the secrets stage unchanged: not redacting them
// is as much a goal as redacting secrets.
var benignTexts = []string{
	// UUIDs, bare and under the keys that carry them.
	"request 123e4567-e89b-12d3-a456-426614174000 failed",
	"request_id=7c1f0a8e-3d4b-4e6f-9a2c-5b8d1e7f3a60",
	`{"id": "7c1f0a8e-3d4b-4e6f-9a2c-5b8d1e7f3a60", "status": "failed"}`,
	"X-Request-Id: 0f8fad5b-d9cb-469f-a165-70867728950e",
	"trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7",
	"clientId = \"73082700-1f09-405b-80d0-3131bfd6272d\"",
	// Git hashes and checksums.
	"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke the build",
	"sha=9fceb02d0ae598e95dc970b74767f19372d61af8&ref=main",
	`"sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"`,
	`etag: "33a64df551425fcc55e4d42a148795d9f25f89d4"`,
	"SRCREV_moby = \"43fc912ef59a83054ea7f6706df4d53a7dea4d80\"",
	// Request, order, charge and event ids of APIs.
	"req_abc123 was throttled", "request req_8f3kLm2QpZxY7wVb failed with 429",
	"order_id=ord_1NXWPnCo6bFb1KQto6C8OWvE", "order ORD-2024-000123 not found",
	"charge ch_3MmlLrLkdIwHu7ix0snN0B15 was declined", "evt_1NG8Du2eZvKYlo2CUQpM8yFR",
	"customer cus_NffrFeUfNV2Hib has no default source", "pi_3MtwBwLkdIwHu7ix28a3tqPa",
	"invoice in_1MtHbELkdIwHu7ixl4OzzPMv is past due",
	// Idempotency keys.
	"Idempotency-Key: 4f2c8a1e-9b7d-4c3a-8e6f-1a2b3c4d5e6f",
	"idempotency_key=9d1b7c4e2f8a6031b5e9d7c3a1f4e8b2",
	`{"idempotency_key": "order-7781-retry-2"}`,
	// Public URLs.
	"see https://docs.github.com/en/rest/overview/resources-in-the-rest-api#rate-limiting",
	"https://api.stripe.com/v1/charges?limit=10&starting_after=ch_3MmlLrLkdIwHu7ix0snN0B15",
	"https://www.googleapis.com/storage/v1/b/my-bucket/o?prefix=logs%2F2024",
	"https://example.com/assets/app.3f9a8c2e7b1d4f6a.js",
	"https://fog-ringer-f42.notion.site/API-BD80F56CDC1441E6BF6011AB6D852875",
	// Keys that are public or are settings.
	"pk_live_51H8xYzKq2eZvKYlo2C0aBcDeF is the publishable key",
	"token_type=bearer expires_in=3600 scope=read", "max_tokens: 4096", "key=value",
	"key: order-status", "primaryKey=user_id", "cache_key=user:42:profile",
	"api_version=2024-06-20", "appid=weather",
	// Words and numbers.
	"The quick brown fox jumps over the lazy dog.",
	"internationalization and localization are long words",
	"Error: connection reset by peer (after 3 retries, 1500 ms)",
	"timestamp 1718035200123 and order number 000123456789",
	"version 1.2.3-beta.4+build.5678",
	"SONAR.LOGIN is set in the project settings", "the ghp_ prefix marks a GitHub token",
}

// TestBenignTextsSurvive checks that benignTexts pass the secrets stage,
// with the prefilter and without.
func TestBenignTextsSurvive(t *testing.T) {
	for _, in := range benignTexts {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			out := s.Redact(in)
			assert.Equal(t, in, out, in)
		}
	}
}

// TestCutValuesIdempotent checks that a value the first cleaning left
// alone is left alone again when the output cap cuts it: stand-ins,
// sentences and token shapes the rules rejected.
func TestCutValuesIdempotent(t *testing.T) {
	for _, in := range []string{
		"aaaaaaaaaaaaaa password=null and more text follows here",
		"aaaaaaaaaaaaaa password=*********** and more text follows here",
		"aaaaaaaaaaaaaa password=$DB_PASSWORD and more text follows here",
		"aaaaaaaaaaaaaa api_key: YOUR_API_KEY and more text follows here",
		`aaaaaaaaaaaaaa password="must be at least twelve characters" and more`,
		"aaaaaaaaaaaaaa Authorization: Bearer XXXXXXXXXXXXXXXX and more text",
		"aaaaaaaaaaaaaa curl -u username:password https://example.com and more",
		"aaaaaaaaaaaaaa AKIA" + strings.Repeat("Q7", 12) + " and more text follows",
		"aaaaaaaaaaaaaa appid=3f9a8c2e-7b1d-4f6a-9c0e-5b8d2a7f1c3e and more text",
		"aaaaaaaaaaaaaa <password>xxxxxxxxxxxx</password> and more text follows",
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			for max := 24; max < len(in); max++ {
				c := New(WithMaxOutput(max), withPrefilterOf(s))
				out, _ := c.Clean(in)
				again, _ := c.Clean(out)
				assert.Equal(t, out, again, "cap %d: %q", max, in)
			}
		}
	}
}

// withPrefilterOf copies the prefilter setting of s.
func withPrefilterOf(s *Sanitizer) Option {
	return func(c *config) { c.prefilter = s.secrets.prefilter }
}
