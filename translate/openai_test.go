package translate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// TestOpenAIRobust checks that garbage never panics and that OpenAI's table names only built-in codes.
func TestOpenAIRobust(t *testing.T) {
	devRobust(t, builtinNamed("openai"))
	devCodesRegister(t, builtinNamed("openai"))
}

// TestOpenAITranslate reads codes, types and params of every type.
func TestOpenAITranslate(t *testing.T) {
	tr := builtinNamed("openai")
	cases := []struct {
		name, body, code, field string
		ok                      bool
	}{
		{"code", `{"error":{"message":"m","type":"invalid_request_error","param":"model","code":"model_not_found"}}`, "model_not_found", "model", true},
		{"numeric code", `{"error":{"message":"m","type":"server_error","param":null,"code":502}}`, "502", "", true},
		{"type only", `{"error":{"message":"m","type":"server_error","param":null,"code":null}}`, "server_error", "", true},
		{"catch-all type", `{"error":{"message":"Invalid URL (GET /v1/x)","type":"invalid_request_error","param":null,"code":null}}`, "", "", true},
		{"param of a wrong type", `{"error":{"message":"m","type":"invalid_request_error","param":["a"],"code":"invalid_value"}}`, "invalid_value", "", true},
		{"empty error", `{"error":{"param":"x"}}`, "", "", false},
		{"error string", `{"error":"unauthorized"}`, "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(devRaw(400, c.body, "X-Request-Id", "req_1"))
			require.Equal(t, c.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, c.code, o.VendorCode)
			assert.Equal(t, c.field, o.Field)
			assert.Equal(t, "req_1", o.RequestID)
		})
	}
	_, ok := tr.Translate(devRaw(200, `{"error":{"message":"m","type":"server_error"}}`))
	assert.False(t, ok, "a 2xx is a success")
}

// TestOpenAIQuotaIsNotRetried keeps an exhausted quota from being retried whatever the headers say.
func TestOpenAIQuotaIsNotRetried(t *testing.T) {
	o, ok := builtinNamed("openai").Translate(devRaw(429, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`,
		"X-Should-Retry", "true", "X-Ratelimit-Reset-Requests", "1s"))
	require.True(t, ok)
	assert.Equal(t, classify.AdviceDoNotRetry, o.Evidence.Retry)
	assert.Zero(t, o.Delay)
}

// TestOpenAIDelay picks the rate-limit wait from the reset headers or the message.
func TestOpenAIDelay(t *testing.T) {
	cases := []struct {
		name   string
		body   string
		header []string
		want   time.Duration
	}{
		{"retry-after wins", `{"error":{"message":"Please try again in 9s.","type":"tokens","code":"rate_limit_exceeded"}}`,
			[]string{"Retry-After", "3", "X-Ratelimit-Reset-Tokens", "7s"}, 0},
		{"tokens by type", `{"error":{"message":"m","type":"tokens","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Reset-Requests", "100ms", "X-Ratelimit-Reset-Tokens", "7s"}, 7 * time.Second},
		{"requests by message", `{"error":{"message":"Rate limit reached on requests per min (RPM)","type":"","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Reset-Requests", "2s", "X-Ratelimit-Reset-Tokens", "7s"}, 2 * time.Second},
		{"by remaining 0", `{"error":{"message":"m","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Remaining-Tokens", "0", "X-Ratelimit-Remaining-Requests", "5", "X-Ratelimit-Reset-Requests", "2s", "X-Ratelimit-Reset-Tokens", "7s"}, 7 * time.Second},
		{"both exhausted", `{"error":{"message":"m","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Remaining-Tokens", "0", "X-Ratelimit-Remaining-Requests", "0", "X-Ratelimit-Reset-Requests", "2s", "X-Ratelimit-Reset-Tokens", "7s"}, 7 * time.Second},
		{"unknown: the shorter", `{"error":{"message":"m","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Reset-Requests", "2s", "X-Ratelimit-Reset-Tokens", "1m0s"}, 2 * time.Second},
		{"junk headers, message", `{"error":{"message":"Please try again in 1m30s.","code":"rate_limit_exceeded"}}`,
			[]string{"X-Ratelimit-Reset-Requests", "-2s", "X-Ratelimit-Reset-Tokens", "soon"}, 90 * time.Second},
		{"junk message", `{"error":{"message":"Please try again in a while.","code":"rate_limit_exceeded"}}`, nil, 0},
		{"message at the end", `{"error":{"message":"try again in 20s","code":"rate_limit_exceeded"}}`, nil, 20 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := builtinNamed("openai").Translate(devRaw(429, c.body, c.header...))
			require.True(t, ok)
			assert.Equal(t, c.want, o.Delay)
		})
	}
}

// TestOpenAIRecognizes claims OpenAI's headers only, not the shared body shape.
func TestOpenAIRecognizes(t *testing.T) {
	tr := builtinNamed("openai")
	body := `{"error":{"message":"m","type":"invalid_request_error","param":null,"code":null}}`
	assert.True(t, tr.Recognizes(devRaw(400, body, "Openai-Processing-Ms", "12")))
	assert.False(t, tr.Recognizes(devRaw(400, body, "X-Request-Id", "req_1")), "the shape is shared by OpenAI-compatible APIs")
}
