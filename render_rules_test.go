package toolerr

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cross-member rules of the rendering: delays, retry policies, docs
// URLs and integers kept within the ranges Validate accepts.

func TestRenderRetryAfterRoundsUp(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string // "" means absent
	}{
		{1500 * time.Microsecond, "2"},
		{time.Nanosecond, "1"},
		{time.Millisecond, "1"},
		{time.Millisecond + 1, "2"},
		{1500 * time.Millisecond, "1500"},
		{0, ""},
		{-time.Second, ""},
	}
	for _, tc := range tests {
		e := Default().New(CodeUpstreamUnavailable, "").WithRequestID("req-1")
		e.RetryAfter = tc.d
		m := decodeRendered(t, e.AppendJSON(nil))
		if tc.want == "" {
			assert.NotContains(t, m, "retry_after_ms", "%v", tc.d)
		} else {
			assert.Equal(t, json.Number(tc.want), m["retry_after_ms"], "%v", tc.d)
		}
	}
	assert.Equal(t, int64(math.MaxInt64/int64(time.Millisecond)+1), ceilMillis(time.Duration(math.MaxInt64)), "no overflow")
}

func TestRenderRetryPolicyOnlyWhenRetryable(t *testing.T) {
	policy := &RetryPolicy{Strategy: StrategyExponential, BaseDelay: 1500 * time.Microsecond, MaxAttempts: 3, IdempotencyRequired: true}
	tests := []struct {
		name       string
		e          *Error
		wantPolicy bool
		retryable  bool
	}{
		{"retryable transient", &Error{Code: "X", Category: CategoryTransient, Retryable: true, RetryPolicy: policy}, true, true},
		{"not retryable", &Error{Code: "X", Category: CategoryTransient, Retryable: false, RetryPolicy: policy}, false, false},
		{"retryable in a category that cannot retry", &Error{Code: "X", Category: CategoryValidation, Retryable: true, RetryPolicy: policy}, false, false},
		{"unknown strategy", &Error{Code: "X", Category: CategoryTransient, Retryable: true, RetryPolicy: &RetryPolicy{Strategy: "linear", BaseDelay: time.Second, MaxAttempts: 2}}, false, true},
		{"built-in made not retryable", Default().New(CodeUpstreamUnavailable, "").WithRetryable(false), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.e.WithRequestID("req-1").AppendJSON(nil)
			require.NoError(t, Validate(body), "%s", body)
			m := decodeRendered(t, body)
			assert.Equal(t, tc.retryable, m["retryable"])
			_, has := m["retry_policy"]
			assert.Equal(t, tc.wantPolicy, has)
		})
	}
	m := decodeRendered(t, (&Error{Code: "X", Category: CategoryTransient, Retryable: true, RetryPolicy: policy, RequestID: "r"}).AppendJSON(nil))
	assert.Equal(t, map[string]any{"strategy": "exponential_backoff", "base_ms": json.Number("2"),
		"max_attempts": json.Number("3"), "idempotency_required": true}, m["retry_policy"], "base_ms rounds up")
}

func TestRenderRateLimitAlwaysCarriesDelay(t *testing.T) {
	tests := []struct {
		name string
		e    *Error
		want string
	}{
		{"no delay, no policy", &Error{Code: "X", Category: CategoryRateLimit, Retryable: true}, "1000"},
		{"policy base delay", &Error{Code: "X", Category: CategoryRateLimit, Retryable: true,
			RetryPolicy: &RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 3 * time.Second, MaxAttempts: 2}}, "3000"},
		{"own delay wins", &Error{Code: "X", Category: CategoryRateLimit, Retryable: true, RetryAfter: 250 * time.Millisecond,
			RetryPolicy: &RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 3 * time.Second, MaxAttempts: 2}}, "250"},
		{"built-in with delay cleared", Default().New(CodeRateLimited, "").WithRetryAfter(0), "1000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.e.WithRequestID("req-1").AppendJSON(nil)
			require.NoError(t, Validate(body))
			assert.Equal(t, json.Number(tc.want), decodeRendered(t, body)["retry_after_ms"])
		})
	}
	// A non-retryable rate limit (quota) gets no invented delay.
	m := decodeRendered(t, Default().New(CodeQuotaExhausted, "").WithRequestID("r").AppendJSON(nil))
	assert.NotContains(t, m, "retry_after_ms")
}

func TestRenderDocsURLMustBeHTTP(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"https://docs.example.com/errors/X", true},
		{"http://docs.example.com", true},
		{"javascript:alert(1)", false},
		{"/docs/errors/X", false},
		{"https://", false},
		{"https://@evil", false},
		{"https://docs.example.com/<x>", false},
		{"https://docs.example.com/a b", false},
		{"https://docs.example.com/" + strings.Repeat("a", MaxURILen), false},
	} {
		e := Default().New(CodeNotFound, "").WithRequestID("req-1")
		e.DocsURL = tc.url
		body := e.AppendJSON(nil)
		require.NoError(t, Validate(body))
		m := decodeRendered(t, body)
		if tc.want {
			assert.Equal(t, tc.url, m["docs_url"])
		} else {
			assert.NotContains(t, m, "docs_url", tc.url)
		}
	}
}

// TestRenderExtremeIntegersStayInContract: AppendJSON promises a body that
// passes Validate whatever the error holds (given a request id). Integers
// the renderer copies through must therefore respect Validate's ranges.
func TestRenderExtremeIntegersStayInContract(t *testing.T) {
	tests := []struct {
		name string
		e    *Error
	}{
		{"huge max_attempts", &Error{Code: "X", Category: CategoryTransient, Retryable: true,
			RetryPolicy: &RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: math.MaxInt}}},
		{"huge item index", (&Error{Code: "X"}).WithItems(ItemError{Index: math.MaxInt, Err: &Error{Code: "Y"}})},
		{"huge retry after", &Error{Code: "X", RetryAfter: time.Duration(math.MaxInt64)}},
		{"huge base delay", &Error{Code: "X", Category: CategoryTransient, Retryable: true,
			RetryPolicy: &RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Duration(math.MaxInt64), MaxAttempts: 2}}},
		{"negative max_attempts", &Error{Code: "X", Category: CategoryTransient, Retryable: true,
			RetryPolicy: &RetryPolicy{Strategy: StrategyExponential, BaseDelay: -time.Second, MaxAttempts: -5}}},
		{"upstream status out of range", (&Error{Code: "X"}).WithUpstream(Upstream{Vendor: "v", Status: 1000})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.e.WithRequestID("req-1").AppendJSON(nil)
			assert.NoError(t, Validate(body), "%s", body)
		})
	}
}
