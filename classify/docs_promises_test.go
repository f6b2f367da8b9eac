package classify

// Promises of classify in the README's quickstart and in docs/
// (classification.md, options.md), checked on classify.New(nil) with no
// options. Each test also checks that its page still says what it checks.

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
)

// The README's quickstart: "503 → UPSTREAM_UNAVAILABLE, retryable, retry_after_ms from
// Retry-After (capped at 60 s)"; "classify.WithMaxDelay(d) | 60 s".
func TestQuickstart503CappedAtSixtySeconds(t *testing.T) {
	docpage.Says(t, "../README.md",
		"// 503 → UPSTREAM_UNAVAILABLE, retryable, retry_after_ms from Retry-After (capped at 60 s)")
	docpage.Says(t, "../docs/options.md",
		"| `classify.WithMaxDelay(d)` | 60 s |")
	c := New(nil)
	for _, tc := range []struct {
		retryAfter string
		want       time.Duration
	}{
		{"7", 7 * time.Second},
		{"60", 60 * time.Second},
		{"61", 60 * time.Second},
		{"3600", 60 * time.Second},
	} {
		e := c.Classify(context.Background(), Outcome{Method: http.MethodPost, Status: http.StatusServiceUnavailable,
			Header: http.Header{"Retry-After": {tc.retryAfter}}})
		assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
		assert.True(t, e.Retryable, "a 503 is retryable whatever the method")
		assert.Equal(t, tc.want, e.RetryAfter, "Retry-After: %s", tc.retryAfter)
	}
	assert.Equal(t, 60*time.Second, DefaultMaxDelay)
}

// "classify.WithClock(now) | time.Now": an HTTP-date Retry-After is read
// against the real clock.
func TestOptionsPageDefaultClockIsNow(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `classify.WithClock(now)` | `time.Now` |")
	at := time.Now().Add(40 * time.Second).UTC().Format(http.TimeFormat)
	e := New(nil).Classify(context.Background(), Outcome{Method: http.MethodGet, Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {at}}})
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.Greater(t, e.RetryAfter, 35*time.Second)
	assert.LessOrEqual(t, e.RetryAfter, 40*time.Second)
}

// "classify.WithMessageFilter(f) | the default sanitizer: vendor messages,
// fields and string details are kept, sanitized": secrets and internal
// hosts leave every vendor text member; the rest stays.
func TestOptionsPageDefaultFilterSanitizesEveryVendorText(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `classify.WithMessageFilter(f)` | the default sanitizer (`sanitize.New().CleanText`): vendor messages, fields and string details are kept, sanitized;")
	o := Outcome{
		Vendor: "acme", VendorCode: "bad_request", Status: http.StatusBadRequest, Method: http.MethodPost,
		Message: "Webhook https://hooks.acme.example/in rejected by payments-db.prod.internal: token ghp_9Zq2R7mKx4LwP0vNc8TbY3sHd6JfG1aUe5Qo is revoked",
		Field:   "webhook.url",
		Details: map[string]any{
			"doc_url":  "https://docs.acme.example/errors/bad_request",
			"upstream": "10.2.3.4:5432 refused",
			"note":     "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		},
	}
	e := New(nil).Classify(context.Background(), o)
	assert.Contains(t, e.Detail, "Webhook https://hooks.acme.example/in rejected")
	assert.Contains(t, e.Detail, "is revoked")
	assert.NotContains(t, e.Detail, "payments-db.prod.internal")
	assert.NotContains(t, e.Detail, "ghp_9Zq2R7mKx4LwP0vNc8TbY3sHd6JfG1aUe5Qo")
	assert.Equal(t, "webhook.url", e.Field)
	require.NotNil(t, e.Details)
	assert.Equal(t, "https://docs.acme.example/errors/bad_request", e.Details["doc_url"])
	assert.NotContains(t, e.Details["upstream"], "10.2.3.4")
	assert.Contains(t, e.Details["upstream"], "refused")
	assert.NotContains(t, e.Details["note"], "eyJhbGciOiJIUzI1NiJ9")
}

// "When the outcome is unknown (gateway timeouts 504/522/524/598/599 …),
// the error is retryable only for idempotent calls: GET, HEAD, OPTIONS,
// TRACE, PUT, DELETE, or a request that carried an idempotency key."
func TestClassificationPageUnknownOutcomeRetryableOnlyWhenIdempotent(t *testing.T) {
	docpage.Says(t, "../docs/classification.md",
		"When the outcome is unknown (gateway timeouts 504/522/524/598/599, client timeouts, resets after sending), the error is retryable only for idempotent calls: GET, HEAD, OPTIONS, TRACE, PUT, DELETE, or a request that carried an idempotency key (`Outcome.Idempotent`).")
	c := New(nil)
	for _, status := range []int{504, 522, 524, 598, 599} {
		for _, m := range []string{"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"} {
			assert.True(t, c.Classify(context.Background(), Outcome{Method: m, Status: status}).Retryable, "%s %d", m, status)
		}
		for _, m := range []string{"POST", "PATCH"} {
			assert.False(t, c.Classify(context.Background(), Outcome{Method: m, Status: status}).Retryable, "%s %d", m, status)
			assert.True(t, c.Classify(context.Background(), Outcome{Method: m, Status: status, Idempotent: true}).Retryable, "keyed %s %d", m, status)
		}
	}
}
