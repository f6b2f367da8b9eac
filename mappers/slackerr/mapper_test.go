package slackerr_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/slackerr"
	"github.com/toolerr/toolerr/translate"
)

// reply is one documented Slack Web API error response.
type reply struct {
	status int
	header map[string]string
	body   string
}

// replies are Slack's documented error responses (Slack Web API reference:
// chat.postMessage's errors, the common errors, "Rate limits"), by the
// channel the message is posted to.
var replies = map[string]reply{
	"C-missing":  {http.StatusOK, nil, `{"ok":false,"error":"channel_not_found"}`},
	"C-blocks":   {http.StatusOK, nil, `{"ok":false,"error":"invalid_blocks","response_metadata":{"messages":["[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text/text]"]}}`},
	"C-scope":    {http.StatusOK, nil, `{"ok":false,"error":"missing_scope","needed":"chat:write","provided":"channels:read"}`},
	"C-auth":     {http.StatusOK, nil, `{"ok":false,"error":"invalid_auth"}`},
	"C-internal": {http.StatusOK, nil, `{"ok":false,"error":"internal_error"}`},
	"C-rate":     {http.StatusTooManyRequests, map[string]string{"Retry-After": "30"}, `{"ok":false,"error":"ratelimited"}`},
	"C-down":     {http.StatusServiceUnavailable, nil, `<html><body>Service Unavailable</body></html>`},
}

// server replays the documented responses on a loopback port and returns
// a real client pointed at it (no retries: slack-go's default).
func server(t *testing.T) *slack.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat.postMessage") {
			http.NotFound(w, r)
			return
		}
		rp, ok := replies[r.FormValue("channel")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Slack-Req-Id", "7b3f0c1e9a2d4e5f8a6b1c2d3e4f5a6b")
		w.WriteHeader(rp.status)
		_, _ = w.Write([]byte(rp.body))
	}))
	t.Cleanup(srv.Close)
	return slack.New("xoxb-test", slack.OptionHTTPClient(srv.Client()), slack.OptionAPIURL(srv.URL+"/api/"))
}

// classifier is the middleware's: translate's tables registered, the
// mapper added.
func classifier(t *testing.T) *classify.Classifier {
	t.Helper()
	c := classify.New(nil, classify.WithErrorMappers(slackerr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	return c
}

func TestErrorsFromTheRealClient(t *testing.T) {
	client, c, ctx := server(t), classifier(t), context.Background()
	post := func(channel, method string) *toolerr.Error {
		t.Helper()
		_, _, err := client.PostMessageContext(ctx, channel, slack.MsgOptionText("hello", false))
		require.Error(t, err, channel)
		e, ok := c.HandlerError(ctx, fmt.Errorf("notify: %w", err), method, false)
		require.True(t, ok, channel)
		require.NotNil(t, e.Upstream, channel)
		assert.Equal(t, slackerr.Vendor, e.Upstream.Vendor, channel)
		return e
	}

	e := post("C-missing", http.MethodPost)
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "channel_not_found", e.Upstream.Code)

	e = post("C-blocks", http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "/blocks/0/text/text", e.Field, "the json-pointer of the first message")
	assert.Equal(t, "must be more than 0 characters", e.Detail)

	e = post("C-scope", http.MethodPost)
	assert.Equal(t, toolerr.CodePermissionDenied, e.Code)
	assert.Equal(t, "chat:write", e.Details["needed_scope"])

	assert.Equal(t, toolerr.CodeUnauthenticated, post("C-auth", http.MethodPost).Code)

	e = post("C-internal", http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.False(t, e.Retryable, "internal_error may have partly run: not retried for a POST")
	assert.True(t, post("C-internal", http.MethodGet).Retryable, "an idempotent call is")

	_, _, err := client.PostMessageContext(ctx, "C-rate", slack.MsgOptionText("hello", false))
	var rl *slack.RateLimitedError
	require.ErrorAs(t, err, &rl)
	e = post("C-rate", http.MethodPost)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 30*time.Second, e.RetryAfter, "RetryAfter")
	assert.Equal(t, http.StatusTooManyRequests, e.Upstream.Status)
	assert.Equal(t, "ratelimited", e.Upstream.Code)

	e = post("C-down", http.MethodGet)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, http.StatusServiceUnavailable, e.Upstream.Status)
}

func TestNotSlack(t *testing.T) {
	_, ok := slackerr.Mapper().MapError(fmt.Errorf("plain"))
	assert.False(t, ok)
	o, ok := slackerr.Mapper().MapError(&slack.SlackErrorResponse{Err: "channel_not_found"})
	require.True(t, ok, "a pointer is read too")
	assert.Equal(t, "channel_not_found", o.VendorCode)
}
