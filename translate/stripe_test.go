package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// devRaw builds a Raw for the developer-tools tests.
func devRaw(status int, body string, header ...string) *Raw {
	h := http.Header{}
	for i := 0; i+1 < len(header); i += 2 {
		h.Add(header[i], header[i+1])
	}
	return &Raw{Method: http.MethodPost, Status: status, Header: h, Body: []byte(body)}
}

// devGarbage are bodies no translator may panic on: malformed, truncated,
// deeply nested, or of the wrong JSON types.
var devGarbage = []string{
	"",
	"   ",
	"null",
	"[]",
	"[1,2,3]",
	`"just a string"`,
	"42",
	"{",
	`{"error":`,
	`{"error": null}`,
	`{"error": "text"}`,
	`{"error": 12}`,
	`{"error": []}`,
	`{"error": {}}`,
	`{"error": {"type": 1, "code": true, "message": {}}}`,
	`{"type": "error", "error": null}`,
	`{"ok": "false", "error": 3}`,
	`{"message": null, "documentation_url": 7}`,
	"<html><body>Bad Gateway</body></html>",
	"\xef\xbb\xbf{\"error\": {\"message\": \"\xff\xfe\"",
	strings.Repeat("[", 100000),
	strings.Repeat(`{"a":`, 5000),
}

// devRobust runs garbage through a translator: it must not panic, and
// must not read any of it as an error when the status is a success.
func devRobust(t *testing.T, tr Translator) {
	t.Helper()
	for _, status := range []int{200, 400, 429, 500} {
		for _, body := range devGarbage {
			r := devRaw(status, body)
			assert.NotPanics(t, func() {
				tr.Recognizes(r)
				if _, ok := tr.Translate(r); ok {
					assert.GreaterOrEqual(t, status, 400, "a 2xx garbage body is a success: %q", body)
				}
			}, "body %q", cutText(body, 40))
		}
	}
}

// devCodesRegister checks that every target of a table is a built-in code.
func devCodesRegister(t *testing.T, tr Translator) {
	t.Helper()
	require.NoError(t, classify.New(nil).RegisterVendor(tr.Vendor(), tr.Codes()))
}

// TestStripeRobust checks that garbage never panics and that Stripe's table names only built-in codes.
func TestStripeRobust(t *testing.T) {
	devRobust(t, builtinNamed("stripe"))
	devCodesRegister(t, builtinNamed("stripe"))
}

// TestStripeTranslate reads a card decline: code, request id, message and details, without the dashboard link.
func TestStripeTranslate(t *testing.T) {
	tr := builtinNamed("stripe")
	r := devRaw(402, `{"error":{"type":"card_error","code":"card_declined","decline_code":"generic_decline","param":"","message":"Your card was declined.","doc_url":"https://stripe.com/docs/error-codes/card-declined","request_log_url":"https://dashboard.stripe.com/logs/req_1"}}`,
		"Request-Id", "req_abc")
	o, ok := tr.Translate(r)
	require.True(t, ok)
	assert.Equal(t, "card_declined", o.VendorCode)
	assert.Equal(t, "req_abc", o.RequestID)
	assert.Equal(t, "Your card was declined.", o.Message)
	assert.Empty(t, o.Field)
	assert.Equal(t, "generic_decline", o.Details["decline_code"])
	assert.NotContains(t, o.Details, "request_log_url", "dashboard links are not for the agent")
}

// TestStripeTypeWithoutCode keeps a bare invalid_request_error as a generic code the status decides, and the other types as codes.
func TestStripeTypeWithoutCode(t *testing.T) {
	tr := builtinNamed("stripe")
	// A bare invalid_request_error is reported, and decided by its status.
	o, ok := tr.Translate(devRaw(401, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided"}}`))
	require.True(t, ok)
	assert.Equal(t, "invalid_request_error", o.VendorCode)
	assert.True(t, o.GenericCode)
	o, ok = tr.Translate(devRaw(400, `{"error":{"type":"invalid_request_error","code":"parameter_missing"}}`))
	require.True(t, ok)
	assert.Equal(t, "parameter_missing", o.VendorCode)
	assert.False(t, o.GenericCode, "a code is never generic")
	// Other types stand for themselves.
	o, ok = tr.Translate(devRaw(400, `{"error":{"type":"idempotency_error","message":"Keys for idempotent requests…"}}`))
	require.True(t, ok)
	assert.Equal(t, "idempotency_error", o.VendorCode)
}

// TestStripeAPIErrorRetryAdvice forbids blind retries of an api_error only for unkeyed, non-idempotent calls without Stripe's advice.
func TestStripeAPIErrorRetryAdvice(t *testing.T) {
	tr := builtinNamed("stripe")
	body := `{"error":{"type":"api_error","message":"An unknown error occurred"}}`
	cases := []struct {
		name       string
		method     string
		idempotent bool
		header     []string
		want       classify.RetryAdvice
	}{
		{"POST without key", http.MethodPost, false, nil, classify.AdviceDoNotRetry},
		{"POST with key", http.MethodPost, true, nil, classify.AdviceNone},
		{"GET", http.MethodGet, false, nil, classify.AdviceNone},
		{"Stripe says", http.MethodPost, false, []string{"Stripe-Should-Retry", "true"}, classify.AdviceNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := devRaw(500, body, c.header...)
			r.Method, r.Idempotent = c.method, c.idempotent
			o, ok := tr.Translate(r)
			require.True(t, ok)
			assert.Equal(t, c.want, o.Evidence.Retry)
		})
	}
}

// TestStripeRecognizes claims Stripe's request ids with Stripe's shape and never Anthropic's.
func TestStripeRecognizes(t *testing.T) {
	tr := builtinNamed("stripe")
	stripeBody := `{"error":{"type":"invalid_request_error","code":"resource_missing"}}`
	anthropicBody := `{"type":"error","error":{"type":"not_found_error","message":"Not found"},"request_id":"req_1"}`
	assert.True(t, tr.Recognizes(devRaw(404, stripeBody, "Request-Id", "req_1")))
	assert.True(t, tr.Recognizes(devRaw(404, "", "Request-Id", "req_1", "Stripe-Version", "2024-06-20")))
	assert.False(t, tr.Recognizes(devRaw(404, stripeBody)), "no Stripe request id")
	assert.False(t, tr.Recognizes(devRaw(404, stripeBody, "Request-Id", "abc-123")), "not a Stripe request id")
	assert.False(t, tr.Recognizes(devRaw(404, anthropicBody, "Request-Id", "req_1")), "Anthropic's ids also start with req_")
}

// TestStripeRecognizesBodyShape claims Stripe's body without Stripe's
// headers only when no other vendor writes it.
func TestStripeRecognizesBodyShape(t *testing.T) {
	tr := builtinNamed("stripe")
	for _, body := range []string{
		`{"error":{"type":"card_error","code":"card_declined","message":"m"}}`,
		`{"error":{"type":"idempotency_error","message":"m"}}`,
		`{"error":{"type":"invalid_request_error","code":"resource_missing","doc_url":"https://stripe.com/docs/error-codes/resource-missing"}}`,
		`{"error":{"type":"api_error","message":"m","request_log_url":"https://dashboard.stripe.com/logs/req_1"}}`,
	} {
		assert.True(t, tr.Recognizes(devRaw(400, body)), body)
	}
	for _, body := range []string{
		`{"error":{"type":"invalid_request_error","code":"resource_missing"}}`,                              // OpenAI-style too
		`{"error":{"message":"m","type":"invalid_request_error","param":"model","code":"model_not_found"}}`, // OpenAI
		`{"type":"error","error":{"type":"api_error","message":"m"}}`,                                       // Anthropic
		`{"error":{"type":"api_error","message":"m"}}`,
		`{"error":{"type":"card_error"},"request_id":"x"}`, // more than Stripe's envelope
		`{"error":"card_error"}`,
	} {
		assert.False(t, tr.Recognizes(devRaw(400, body)), body)
	}
}

// TestStripeSuccessAndOtherShapes leaves 2xx bodies and proxy pages to others.
func TestStripeSuccessAndOtherShapes(t *testing.T) {
	tr := builtinNamed("stripe")
	_, ok := tr.Translate(devRaw(200, `{"error":{"type":"card_error","code":"card_declined"}}`))
	assert.False(t, ok, "Stripe never sends an error with a 2xx")
	_, ok = tr.Translate(devRaw(502, `<html>Bad Gateway</html>`))
	assert.False(t, ok, "a proxy page is for the gateway and generic translators")
}

// TestStripeHugeMembers bounds huge members at a rune boundary.
func TestStripeHugeMembers(t *testing.T) {
	tr := builtinNamed("stripe")
	huge := strings.Repeat("é", 100000)
	o, ok := tr.Translate(devRaw(400, `{"error":{"type":"invalid_request_error","code":"parameter_missing","param":"`+huge+`","message":"`+huge+`"}}`))
	require.True(t, ok)
	assert.LessOrEqual(t, len(o.Message), jsonTextMax)
	assert.LessOrEqual(t, len(o.Field), jsonTextMax)
	assert.True(t, strings.HasPrefix(huge, o.Message), "cut at a rune boundary")
}
