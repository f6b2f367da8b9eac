package anthropicerr_test

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

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/anthropicerr"
	"github.com/toolerr/toolerr/translate"
)

// anthropicResponse is one of Anthropic's documented error responses
// (docs.anthropic.com/en/api/errors, .../rate-limits).
type anthropicResponse struct {
	status int
	header map[string]string
	typ    string
	msg    string
}

// responses are keyed by the text of the user message the test sends.
var responses = map[string]anthropicResponse{
	"overloaded": {529, nil, "overloaded_error", "Overloaded"},
	"rate-limit": {429, map[string]string{"Retry-After": "7",
		"Anthropic-Ratelimit-Requests-Limit": "50", "Anthropic-Ratelimit-Requests-Remaining": "0",
		"Anthropic-Ratelimit-Requests-Reset": "2026-11-26T09:00:07Z"},
		"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"},
	"bad-request": {400, nil, "invalid_request_error", "max_tokens: Field required"},
	"bad-key":     {401, nil, "authentication_error", "invalid x-api-key"},
	"no-credit":   {400, nil, "invalid_request_error", "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},
	"forbidden":   {403, nil, "permission_error", "Your API key does not have permission to use the specified resource."},
	"no-model":    {404, nil, "not_found_error", "model: claude-9"},
	"too-large":   {413, nil, "request_too_large", "Request exceeds the maximum allowed number of bytes."},
	"api-error":   {500, nil, "api_error", "Internal server error"},
}

// replay serves the responses as the Anthropic API writes them (the body
// with its request_id, the request-id header) and returns a real
// anthropic-sdk-go client against it, its own retries off; calls counts
// the requests that arrived.
func replay(t *testing.T, calls *atomic.Int32) anthropic.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var body struct {
			Messages []struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		name := ""
		if len(body.Messages) > 0 && len(body.Messages[0].Content) > 0 {
			name = body.Messages[0].Content[0].Text
		}
		resp, ok := responses[name]
		if !ok {
			resp = anthropicResponse{404, nil, "not_found_error", "Not found"}
		}
		out, _ := json.Marshal(map[string]any{
			"type":       "error",
			"error":      map[string]string{"type": resp.typ, "message": resp.msg},
			"request_id": "req_" + name,
		})
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Request-Id", "req_"+name)
		h.Set("Date", "Thu, 26 Nov 2026 09:00:00 GMT")
		for k, v := range resp.header {
			h.Set(k, v)
		}
		w.WriteHeader(resp.status)
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("sk-ant-test"), option.WithMaxRetries(0))
}

func TestAnthropicErrorsFromARealClient(t *testing.T) {
	var calls atomic.Int32
	client := replay(t, &calls)
	c := classify.New(nil, classify.WithErrorMappers(anthropicerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	ctx := context.Background()
	call := func(name string) *toolerr.Error {
		t.Helper()
		_, err := client.Messages.New(ctx, anthropic.MessageNewParams{
			Model:     anthropic.Model("claude-sonnet-5-5"),
			MaxTokens: 64,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(name))},
		})
		require.Error(t, err)
		_, typed := errors.AsType[*anthropic.Error](err)
		require.True(t, typed, "%s: the SDK returns an *anthropic.Error", name)
		e, ok := c.HandlerError(ctx, fmt.Errorf("draft: %w", err), http.MethodPost, false)
		require.True(t, ok, name)
		require.NotNil(t, e.Upstream, name)
		assert.Equal(t, anthropicerr.Vendor, e.Upstream.Vendor, name)
		assert.Equal(t, "req_"+name, e.Upstream.RequestID, name)
		return e
	}

	e := call("overloaded")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, "overloaded_error", e.Upstream.Code)
	assert.Equal(t, 529, e.Upstream.Status)

	e = call("rate-limit")
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 7*time.Second, e.RetryAfter, "Retry-After")
	assert.Equal(t, "rate_limit_error", e.Upstream.Code)

	e = call("bad-request")
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "max_tokens", e.Field)

	assert.Equal(t, toolerr.CodeUnauthenticated, call("bad-key").Code)

	e = call("no-credit")
	assert.Equal(t, toolerr.CodePaymentRequired, e.Code, "a low credit balance is a billing error")
	assert.False(t, e.Retryable)

	assert.Equal(t, toolerr.CodePermissionDenied, call("forbidden").Code)
	assert.Equal(t, toolerr.CodeNotFound, call("no-model").Code)
	assert.Equal(t, toolerr.CodePayloadTooLarge, call("too-large").Code)

	e = call("api-error")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.Equal(t, "api_error", e.Upstream.Code)

	assert.Equal(t, int32(len(responses)), calls.Load(), "one attempt per call")
}

// TestRateLimitReset: without a retry-after header, a rate limit waits for
// the reset of the limit that was hit, read against the response's Date.
func TestRateLimitReset(t *testing.T) {
	responses["reset-only"] = anthropicResponse{429, map[string]string{
		"Anthropic-Ratelimit-Tokens-Remaining": "0", "Anthropic-Ratelimit-Tokens-Reset": "2026-11-26T09:00:12Z",
		"Anthropic-Ratelimit-Requests-Remaining": "40", "Anthropic-Ratelimit-Requests-Reset": "2026-11-26T09:00:01Z",
	}, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"}
	t.Cleanup(func() { delete(responses, "reset-only") })
	var calls atomic.Int32
	client := replay(t, &calls)
	c := classify.New(nil, classify.WithErrorMappers(anthropicerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	_, err = client.Messages.New(context.Background(), anthropic.MessageNewParams{
		Model: anthropic.Model("claude-sonnet-5-5"), MaxTokens: 64,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("reset-only"))},
	})
	require.Error(t, err)
	e, ok := c.HandlerError(context.Background(), err, http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.Equal(t, 12*time.Second, e.RetryAfter, "the token limit's reset")
}

// TestNotAnAnthropicError: other errors are not the mapper's.
func TestNotAnAnthropicError(t *testing.T) {
	_, ok := anthropicerr.Mapper().MapError(errors.New("plain"))
	assert.False(t, ok)
}
