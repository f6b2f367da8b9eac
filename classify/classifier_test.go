package classify

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

var fixedNow = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// recorder is an Observer that keeps what it was told.
type recorder struct {
	mu  sync.Mutex
	got []Unmapped
}

func (r *recorder) Unmapped(_ context.Context, u Unmapped) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, u)
}

func newTestClassifier(t *testing.T, opts ...Option) (*Classifier, *recorder) {
	t.Helper()
	rec := &recorder{}
	c := New(nil, append([]Option{WithObserver(rec), WithClock(func() time.Time { return fixedNow })}, opts...)...)
	require.NoError(t, c.RegisterVendor("openai", map[string]string{
		"rate_limit_exceeded": toolerr.CodeRateLimited,
		"insufficient_quota":  toolerr.CodeQuotaExhausted,
		"invalid_api_key":     toolerr.CodeUnauthenticated,
	}))
	require.NoError(t, c.RegisterVendor("stripe", map[string]string{
		"resource_missing": toolerr.CodeNotFound,
		"lock_timeout":     toolerr.CodeUpstreamUnavailable,
	}))
	return c, rec
}

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestPrecedence(t *testing.T) {
	tests := []struct {
		name      string
		o         Outcome
		code      string
		rule      Rule
		retryable bool
		delay     time.Duration
		unmapped  bool
	}{
		{
			name: "vendor code beats status",
			o:    Outcome{Vendor: "stripe", VendorCode: "resource_missing", Status: 400},
			code: toolerr.CodeNotFound, rule: RuleVendorCode,
		},
		{
			name: "quota exhaustion on a 429 is not retryable",
			o:    Outcome{Vendor: "openai", VendorCode: "insufficient_quota", Status: 429, Header: header("Retry-After", "20")},
			code: toolerr.CodeQuotaExhausted, rule: RuleVendorCode,
		},
		{
			name: "vendor rate limit takes the header delay",
			o:    Outcome{Vendor: "openai", VendorCode: "rate_limit_exceeded", Status: 429, Header: header("Retry-After-Ms", "1500", "Retry-After", "9")},
			code: toolerr.CodeRateLimited, rule: RuleVendorCode, retryable: true, delay: 1500 * time.Millisecond,
		},
		{
			name: "vendor codes are scoped by vendor",
			o:    Outcome{Vendor: "openai", VendorCode: "resource_missing", Status: 400},
			code: toolerr.CodeValidationFailed, rule: RuleStatus, unmapped: true,
		},
		{
			name: "GitHub primary rate limit: 403 with remaining 0",
			o:    Outcome{Vendor: "github", Status: 403, Header: header("X-Ratelimit-Remaining", "0", "X-Ratelimit-Reset", "1795341630")},
			code: toolerr.CodeRateLimited, rule: RuleEvidence, retryable: true, delay: 30 * time.Second,
		},
		{
			name: "a 403 with requests left is a real denial",
			o:    Outcome{Vendor: "github", Status: 403, Header: header("X-Ratelimit-Remaining", "4999", "X-Ratelimit-Reset", "1795341630")},
			code: toolerr.CodePermissionDenied, rule: RuleStatus,
		},
		{
			name: "reset headers alone never give a transient error a delay",
			o:    Outcome{Status: 503, Header: header("X-Ratelimit-Reset", "1795341630")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleStatus, retryable: true,
		},
		{
			name: "translator evidence: secondary rate limit",
			o:    Outcome{Vendor: "github", Status: 403, Evidence: Evidence{RateLimited: true}, Header: header("Retry-After", "60")},
			code: toolerr.CodeRateLimited, rule: RuleEvidence, retryable: true, delay: 60 * time.Second,
		},
		{
			name: "rate limit without any delay uses the code's base delay",
			o:    Outcome{Status: 429},
			code: toolerr.CodeRateLimited, rule: RuleStatus, retryable: true,
		},
		{
			name: "Cloudflare challenge is a policy block, whatever the status",
			o:    Outcome{Status: 403, Header: header("Cf-Mitigated", "challenge")},
			code: toolerr.CodePolicyBlocked, rule: RuleEvidence,
		},
		{
			name: "Stripe-Should-Retry true on a 409",
			o:    Outcome{Vendor: "stripe", Status: 409, Header: header("Stripe-Should-Retry", "true")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleEvidence, retryable: true,
		},
		{
			name: "x-should-retry false on a 503",
			o:    Outcome{Status: 503, Header: header("X-Should-Retry", "false")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleStatus,
		},
		{
			name: "should-retry false beats a mapped vendor code's retryability",
			o:    Outcome{Vendor: "stripe", VendorCode: "lock_timeout", Status: 409, Header: header("Stripe-Should-Retry", "false")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleVendorCode,
		},
		{
			name: "x-should-retry true makes a POST 504 retryable",
			o:    Outcome{Method: http.MethodPost, Status: 504, Header: header("X-Should-Retry", "true")},
			code: toolerr.CodeUpstreamTimeout, rule: RuleStatus, retryable: false,
		},
		{
			name: "unmapped vendor code on a 500 to a POST is unclassified and not retryable",
			o:    Outcome{Method: http.MethodPost, Vendor: "stripe", VendorCode: "brand_new_error", Status: 500, Header: header("Retry-After", "5")},
			code: toolerr.CodeUpstreamUnclassified, rule: RuleStatus, unmapped: true,
		},
		{
			name: "unmapped vendor code still classified by status, and counted",
			o:    Outcome{Vendor: "stripe", VendorCode: "brand_new_error", Status: 404},
			code: toolerr.CodeNotFound, rule: RuleStatus, unmapped: true,
		},
		{
			name: "the zero outcome",
			o:    Outcome{},
			code: toolerr.CodeUpstreamUnclassified, rule: RuleFallback, unmapped: true,
		},
		{
			name: "translator delay wins over headers and is capped",
			o:    Outcome{Status: 429, Delay: 5 * time.Minute, Header: header("Retry-After", "3")},
			code: toolerr.CodeRateLimited, rule: RuleStatus, retryable: true, delay: DefaultMaxDelay,
		},
		{
			name: "header delay is capped",
			o:    Outcome{Status: 503, Header: header("Retry-After", "86400")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleStatus, retryable: true, delay: DefaultMaxDelay,
		},
		{
			name: "HTTP-date Retry-After",
			o:    Outcome{Status: 503, Header: header("Retry-After", "Sun, 22 Nov 2026 10:00:12 GMT")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleStatus, retryable: true, delay: 12 * time.Second,
		},
		{
			name: "junk Retry-After is absent",
			o:    Outcome{Status: 503, Header: header("Retry-After", "soon")},
			code: toolerr.CodeUpstreamUnavailable, rule: RuleStatus, retryable: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newTestClassifier(t)
			d := c.Decide(tc.o)
			assert.Equal(t, tc.code, d.Code)
			assert.Equal(t, tc.rule, d.Rule, "rule %s", d.Rule)
			assert.Equal(t, tc.retryable, d.Retryable, "retryable")
			assert.Equal(t, tc.delay, d.Delay, "delay")
			assert.Equal(t, tc.unmapped, d.Unmapped, "unmapped")

			e := c.Classify(context.Background(), tc.o)
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.retryable, e.Retryable)
			require.NoError(t, toolerr.Validate(e.WithRequestID("r").AppendJSON(nil)))
			if tc.unmapped {
				require.Len(t, rec.got, 1, "the observer hears of it once")
				assert.Equal(t, Unmapped{Vendor: tc.o.Vendor, VendorCode: tc.o.VendorCode, Status: tc.o.Status, Code: tc.code}, rec.got[0])
			} else {
				assert.Empty(t, rec.got)
			}
		})
	}
}

func TestRateLimitWithoutDelayCarriesBaseDelay(t *testing.T) {
	e := New(nil).Classify(context.Background(), Outcome{Status: 429})
	def, ok := toolerr.Default().Lookup(toolerr.CodeRateLimited)
	require.True(t, ok)
	assert.Equal(t, def.Retry.BaseDelay, e.RetryAfter, "a retryable rate limit must carry retry_after_ms")
}

func TestVendorMessageNeedsFilter(t *testing.T) {
	o := Outcome{
		Vendor: "stripe", VendorCode: "resource_missing", Status: 404, RequestID: "req_9Xy2",
		Message: "No such customer: 'cus_123'; key sk_live_abcdef used", Field: "customer",
	}
	plain := New(nil, WithMessageFilter(nil)).Classify(context.Background(), o)
	assert.Equal(t, "The request is invalid", toolerr.Default().New(toolerr.CodeValidationFailed, "").Detail)
	def, _ := toolerr.Default().Lookup(toolerr.CodeNotFound)
	assert.Equal(t, def.Title, plain.Detail, "without a filter the vendor's text is not used")
	assert.Equal(t, "customer", plain.Field, "a plain field name is kept")
	require.NotNil(t, plain.Upstream)
	assert.Equal(t, toolerr.Upstream{Vendor: "stripe", Status: 404, Code: "resource_missing", RequestID: "req_9Xy2"}, *plain.Upstream)

	filtered := New(nil, WithMessageFilter(func(s string) string {
		return strings.ReplaceAll(s, "sk_live_abcdef", "[REDACTED]")
	})).Classify(context.Background(), o)
	assert.Equal(t, "No such customer: 'cus_123'; key [REDACTED] used", filtered.Detail)

	o.Message = "No such customer: 'cus_123'; key sk_live_51HqLyjWDarjtT1zdp7dcXu2Q used"
	byDefault := New(nil).Classify(context.Background(), o)
	assert.Contains(t, byDefault.Detail, "No such customer", "the default filter keeps the vendor's message")
	assert.NotContains(t, byDefault.Detail, "sk_live_51HqLyjWDarjtT1zdp7dcXu2Q", "and redacts its secrets")

	odd := New(nil, WithMessageFilter(nil)).Classify(context.Background(), Outcome{Status: 400, Vendor: "x y", VendorCode: "<script>", Field: "a b\n", RequestID: strings.Repeat("r", 200)})
	assert.Empty(t, odd.Field, "a field that is not a plain token is dropped without a filter")
	assert.Equal(t, toolerr.Upstream{Vendor: "unknown", Status: 400}, *odd.Upstream)
}

func TestRegisterVendor(t *testing.T) {
	c := New(nil)
	err := c.RegisterVendor("acme", map[string]string{"ok_code": toolerr.CodeNotFound, "bad": "NO_SUCH_CODE"})
	require.ErrorContains(t, err, "NO_SUCH_CODE")
	assert.False(t, c.Decide(Outcome{Vendor: "acme", VendorCode: "ok_code", Status: 400}).Rule == RuleVendorCode,
		"a failed table registers nothing")
	require.Error(t, c.RegisterVendor("", map[string]string{"x": toolerr.CodeNotFound}))
	require.Error(t, c.RegisterVendor("acme", map[string]string{"": toolerr.CodeNotFound}))

	reg := toolerr.NewRegistry(toolerr.Default())
	require.NoError(t, reg.Register(toolerr.Def{
		Code: "CARD_DECLINED", Category: toolerr.CategoryValidation, Status: 402,
		Title: "The card was declined", Hint: "Ask the user for another payment method.", HumanHint: "Your card was declined.",
	}))
	c = New(reg)
	require.NoError(t, c.RegisterVendor("stripe", map[string]string{"card_declined": "CARD_DECLINED"}))
	e := c.Classify(context.Background(), Outcome{Vendor: "stripe", VendorCode: "card_declined", Status: 402})
	assert.Equal(t, "CARD_DECLINED", e.Code)
	assert.Equal(t, 402, e.Status)
}

func TestRegisterVendorConcurrentWithClassify(t *testing.T) {
	c := New(nil)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range 200 {
				_ = c.RegisterVendor("v", map[string]string{strings.Repeat("c", i+1) + string(rune('a'+j%26)): toolerr.CodeNotFound})
			}
		}()
		go func() {
			defer wg.Done()
			for range 200 {
				_ = c.Decide(Outcome{Vendor: "v", VendorCode: "ca", Status: 500})
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, toolerr.CodeNotFound, c.Decide(Outcome{Vendor: "v", VendorCode: "ca", Status: 500}).Code)
}

func TestMaxDelayOption(t *testing.T) {
	c := New(nil, WithMaxDelay(5*time.Second))
	assert.Equal(t, 5*time.Second, c.Decide(Outcome{Status: 503, Header: header("Retry-After", "30")}).Delay)
	c = New(nil, WithMaxDelay(-1))
	assert.Equal(t, 30*time.Second, c.Decide(Outcome{Status: 503, Header: header("Retry-After", "30")}).Delay, "a non-positive cap keeps the default")
}

func TestRuleString(t *testing.T) {
	assert.Equal(t, "vendor_code", RuleVendorCode.String())
	assert.Equal(t, "fallback", RuleFallback.String())
	assert.Equal(t, "unknown", Rule(42).String())
}

func TestVendorDetails(t *testing.T) {
	o := Outcome{Status: 402, Vendor: "stripe", VendorCode: "card_declined", Details: map[string]any{
		"decline_code": "insufficient_funds",
		"doc_url":      "https://stripe.com/docs/error-codes/card-declined",
		"amount_minor": 1200,
		"live":         true,
		"nested":       map[string]any{"dropped": true},
		"empty":        "",
	}}
	e := New(nil, WithMessageFilter(nil)).Classify(context.Background(), o)
	assert.Equal(t, map[string]any{"amount_minor": 1200, "live": true}, e.Details, "with the filter turned off no vendor text is kept")

	e = New(nil).Classify(context.Background(), o)
	assert.Equal(t, "insufficient_funds", e.Details["decline_code"], "the default filter keeps a vendor's string details")
	assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", e.Details["doc_url"])

	upper := func(s string) string { return strings.ToUpper(s) }
	e = New(nil, WithMessageFilter(upper)).Classify(context.Background(), o)
	assert.Equal(t, "INSUFFICIENT_FUNDS", e.Details["decline_code"], "text goes through the filter")
	assert.Equal(t, "HTTPS://STRIPE.COM/DOCS/ERROR-CODES/CARD-DECLINED", e.Details["doc_url"])
	assert.NotContains(t, e.Details, "nested")
	assert.NotContains(t, e.Details, "empty")
	assert.Empty(t, e.DocsURL, "a vendor's link is a detail, never the code's docs_url")
}
