package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAdversarialBenignIdentifiersKept covers benign identifiers the
// existing tests do not name: OpenTelemetry ids, S3 request ids, ETags,
// SRI hashes, AWS ARNs without an account id, LLM usage counters and Stripe
// object ids.
func TestAdversarialBenignIdentifiersKept(t *testing.T) {
	s := New(WithHostname(""))
	for _, in := range []string{
		"traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"x-amz-request-id: 4442587FB7D0A2F9",
		`etag: "33a64df551425fcc55e4d42a148795d9f25f89d4"`,
		`integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"`,
		"arn:aws:s3:::my-bucket/reports/2026.csv", // no account: the account id and principal name are masked (hosts_arn_test.go)
		`usage: {"prompt_tokens": 12, "completion_tokens": 34, "total_tokens": 46}`,
		"max_tokens=4096",
		"customer cus_NffrFeUfNV2Hib subscription sub_1MowQVLkdIwHu7ixeRlqHVzs",
		"https://api.stripe.com/v1/charges/ch_3MmlLrLkdIwHu7ix0snN0B15",
		"Result<T, std::io::Error>: failed to fill whole buffer",
		"token_type: Bearer",
		`duplicate key value violates unique constraint "users_email_key"`,
	} {
		out, _ := s.Clean(in)
		assert.Equal(t, in, out)
	}
}
