package openaierr_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/openaierr"
	"github.com/toolerr/toolerr/translate"
)

// openAIResponse is one of OpenAI's documented error responses
// (platform.openai.com/docs/guides/error-codes, .../rate-limits).
type openAIResponse struct {
	status int
	header map[string]string
	body   string
}

// responses are keyed by the content of the user message the test sends.
var responses = map[string]openAIResponse{
	"rate-limit-ms": {429, map[string]string{"Retry-After-Ms": "1500", "X-Ratelimit-Remaining-Requests": "0"},
		`{"error": {"message": "Rate limit reached for gpt-4o in organization org-toolerr on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.",
		"type": "requests", "param": null, "code": "rate_limit_exceeded"}}`},
	"rate-limit-reset": {429, map[string]string{"X-Ratelimit-Remaining-Tokens": "0", "X-Ratelimit-Reset-Tokens": "6s",
		"X-Ratelimit-Reset-Requests": "120ms"},
		`{"error": {"message": "Rate limit reached for gpt-4o in organization org-toolerr on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 6s.",
		"type": "tokens", "param": null, "code": "rate_limit_exceeded"}}`},
	"quota": {429, nil, `{"error": {"message": "You exceeded your current quota, please check your plan and billing details.",
		"type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}`},
	"bad-key": {401, nil, `{"error": {"message": "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
		"type": "invalid_request_error", "param": null, "code": "invalid_api_key"}}`},
	"too-long": {400, nil, `{"error": {"message": "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.",
		"type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}`},
	"no-model": {404, nil, `{"error": {"message": "The model 'gpt-9' does not exist or you do not have access to it.",
		"type": "invalid_request_error", "param": null, "code": "model_not_found"}}`},
	"server": {500, nil, `{"error": {"message": "The server had an error while processing your request. Sorry about that!",
		"type": "server_error", "param": null, "code": null}}`},
}

// replay serves the responses with OpenAI's headers and returns a real
// openai-go client against it, its own retries off; calls counts the
// requests that arrived.
func replay(t *testing.T, calls *atomic.Int32) openai.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var body struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		name := ""
		if len(body.Messages) > 0 {
			name = body.Messages[0].Content
		}
		resp, ok := responses[name]
		if !ok {
			resp = openAIResponse{404, nil, `{"error": {"message": "Invalid URL", "type": "invalid_request_error", "param": null, "code": null}}`}
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Request-Id", "req_"+name)
		h.Set("Openai-Organization", "org-toolerr")
		h.Set("Openai-Processing-Ms", "12")
		h.Set("Openai-Version", "2020-10-01")
		for k, v := range resp.header {
			h.Set(k, v)
		}
		w.WriteHeader(resp.status)
		_, _ = w.Write([]byte(resp.body))
	}))
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
}

func TestOpenAIErrorsFromARealClient(t *testing.T) {
	var calls atomic.Int32
	client := replay(t, &calls)
	c := classify.New(nil, classify.WithErrorMappers(openaierr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	ctx := context.Background()
	call := func(name string) *toolerr.Error {
		t.Helper()
		_, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
			Model:    openai.ChatModel("gpt-4.1"),
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(name)},
		})
		require.Error(t, err)
		_, typed := errors.AsType[*openai.Error](err)
		require.True(t, typed, "%s: the SDK returns an *openai.Error", name)
		e, ok := c.HandlerError(ctx, fmt.Errorf("summarize: %w", err), http.MethodPost, false)
		require.True(t, ok, name)
		require.NotNil(t, e.Upstream, name)
		assert.Equal(t, openaierr.Vendor, e.Upstream.Vendor, name)
		assert.Equal(t, "req_"+name, e.Upstream.RequestID, name)
		return e
	}

	e := call("rate-limit-ms")
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 1500*time.Millisecond, e.RetryAfter, "retry-after-ms")
	assert.Equal(t, "rate_limit_exceeded", e.Upstream.Code)
	assert.Equal(t, 429, e.Upstream.Status)

	e = call("rate-limit-reset")
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.Equal(t, 6*time.Second, e.RetryAfter, "the reset of the token limit that was hit")

	e = call("quota")
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code)
	assert.False(t, e.Retryable)

	e = call("bad-key")
	assert.Equal(t, toolerr.CodeUnauthenticated, e.Code)
	assert.Equal(t, "invalid_api_key", e.Upstream.Code)

	e = call("too-long")
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)
	assert.Equal(t, "messages", e.Field)

	assert.Equal(t, toolerr.CodeNotFound, call("no-model").Code)

	e = call("server")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.Equal(t, "server_error", e.Upstream.Code)

	assert.Equal(t, int32(len(responses)), calls.Load(), "one attempt per call")
}

// TestErrorWithoutResponse: an error built by hand is read from its fields.
func TestErrorWithoutResponse(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(openaierr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	oe := &openai.Error{StatusCode: 400, Code: "context_length_exceeded", Type: "invalid_request_error",
		Param: "messages", Message: "too long"}
	e, ok := c.HandlerError(context.Background(), fmt.Errorf("summarize: %w", oe), http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)
	assert.Equal(t, "messages", e.Field)
}

// TestNotAnOpenAIError: other errors are not the mapper's.
func TestNotAnOpenAIError(t *testing.T) {
	_, ok := openaierr.Mapper().MapError(errors.New("plain"))
	assert.False(t, ok)
}
