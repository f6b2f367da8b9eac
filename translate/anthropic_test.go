package translate

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// TestAnthropicRobust checks that garbage never panics and that Anthropic's table names only built-in codes.
func TestAnthropicRobust(t *testing.T) {
	devRobust(t, builtinNamed("anthropic"))
	devCodesRegister(t, builtinNamed("anthropic"))
}

// TestAnthropicTranslate reads types, detail codes, fields and request ids.
func TestAnthropicTranslate(t *testing.T) {
	tr := builtinNamed("anthropic")
	cases := []struct {
		name, body, code, field, requestID string
		ok                                 bool
	}{
		{"body request id", `{"type":"error","error":{"type":"not_found_error","message":"Not found"},"request_id":"req_body"}`,
			"not_found_error", "", "req_body", true},
		{"header request id", `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			"api_error", "", "req_header", true},
		{"field", `{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content: Input should be a valid list"}}`,
			"invalid_request_error", "messages.0.content", "req_header", true},
		{"no field", `{"type":"error","error":{"type":"invalid_request_error","message":"Error: something odd"}}`,
			"invalid_request_error", "", "req_header", true},
		{"details code", `{"type":"error","error":{"type":"rate_limit_error","message":"m","details":{"error_code":"enforced_spend_limit_reached"}}}`,
			"enforced_spend_limit_reached", "", "req_header", true},
		{"details of a wrong type", `{"type":"error","error":{"type":"rate_limit_error","message":"m","details":"x"}}`,
			"rate_limit_error", "", "req_header", true},
		{"error of a wrong type", `{"type":"error","error":"overloaded"}`, "", "", "", false},
		{"empty error", `{"type":"error","error":{}}`, "", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(devRaw(429, c.body, "Request-Id", "req_header"))
			require.Equal(t, c.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, c.code, o.VendorCode)
			assert.Equal(t, c.field, o.Field)
			assert.Equal(t, c.requestID, o.RequestID)
		})
	}
}

// TestAnthropicBilling reads billing and spend-limit errors as not retryable.
func TestAnthropicBilling(t *testing.T) {
	tr := builtinNamed("anthropic")
	for body, code := range map[string]string{
		`{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}`: "billing_error",
		`{"type":"error","error":{"type":"billing_error","message":"m"}}`:                                                                   "billing_error",
		`{"type":"error","error":{"type":"rate_limit_error","message":"m","details":{"error_code":"enforced_spend_limit_reached"}}}`:        "enforced_spend_limit_reached",
	} {
		o, ok := tr.Translate(devRaw(400, body, "X-Should-Retry", "true"))
		require.True(t, ok)
		assert.Equal(t, code, o.VendorCode)
		assert.Equal(t, classify.AdviceDoNotRetry, o.Evidence.Retry, body)
	}
}

// TestAnthropicDelay picks the rate-limit wait from the reset instants against the Date header.
func TestAnthropicDelay(t *testing.T) {
	body := `{"type":"error","error":{"type":"rate_limit_error","message":"m"}}`
	date := "Thu, 01 Jan 2026 00:00:00 GMT"
	cases := []struct {
		name   string
		header []string
		want   time.Duration
	}{
		{"retry-after wins", []string{"Date", date, "Retry-After", "4", "Anthropic-Ratelimit-Tokens-Reset", "2026-01-01T00:00:30Z"}, 0},
		{"the exhausted limit", []string{"Date", date,
			"Anthropic-Ratelimit-Requests-Remaining", "3", "Anthropic-Ratelimit-Requests-Reset", "2026-01-01T00:00:02Z",
			"Anthropic-Ratelimit-Output-Tokens-Remaining", "0", "Anthropic-Ratelimit-Output-Tokens-Reset", "2026-01-01T00:00:12Z"}, 12 * time.Second},
		{"none exhausted: the earliest", []string{"Date", date,
			"Anthropic-Ratelimit-Requests-Reset", "2026-01-01T00:00:09Z", "Anthropic-Ratelimit-Tokens-Reset", "2026-01-01T00:00:05Z"}, 5 * time.Second},
		{"past and junk resets", []string{"Date", date,
			"Anthropic-Ratelimit-Requests-Reset", "2025-12-31T23:59:00Z", "Anthropic-Ratelimit-Tokens-Reset", "tomorrow"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := builtinNamed("anthropic").Translate(devRaw(429, body, c.header...))
			require.True(t, ok)
			assert.Equal(t, c.want, o.Delay)
		})
	}
}

// TestAnthropicRecognizes claims Anthropic's headers and body, never Stripe's.
func TestAnthropicRecognizes(t *testing.T) {
	tr := builtinNamed("anthropic")
	assert.True(t, tr.Recognizes(devRaw(404, `{"type":"error","error":{"type":"not_found_error","message":"m"}}`)))
	assert.True(t, tr.Recognizes(devRaw(200, `{}`, "Anthropic-Organization-Id", "org")))
	assert.False(t, tr.Recognizes(devRaw(404, `{"error":{"type":"invalid_request_error","code":"resource_missing"}}`, "Request-Id", "req_1")), "Stripe's")
	assert.False(t, tr.Recognizes(devRaw(404, `{"type":"error","error":"x"}`)))
}

// TestAnthropicField reads the parameter path that starts a validation message.
func TestAnthropicField(t *testing.T) {
	for in, want := range map[string]string{
		"max_tokens: Field required":         "max_tokens",
		"messages.0.content.1.source: bad":   "messages.0.content.1.source",
		"prompt is too long: 2 tokens > 1":   "",
		"Error: x":                           "",
		"no colon here":                      "",
		": empty":                            "",
		"tools[0].name: String should match": "tools[0].name",
	} {
		assert.Equal(t, want, anthropicField(in), in)
	}
}

// TestAnthropicTooLarge reads the catch-all invalid_request_error on a 413
// as request_too_large, while the upstream code stays what Anthropic sent.
func TestAnthropicTooLarge(t *testing.T) {
	body := `{"type":"error","error":{"type":"invalid_request_error","message":"Request too large"}}`
	e := Default().Classify(context.Background(), &Raw{Method: "POST", Host: "api.anthropic.com", Status: 413, Body: []byte(body)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)
	assert.Equal(t, "invalid_request_error", e.Upstream.Code)
	e = Default().Classify(context.Background(), &Raw{Method: "POST", Host: "api.anthropic.com", Status: 400, Body: []byte(body)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code, "on a 400 the type keeps its own class")
}
