package toolresult

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// refusedURL returns the URL of a loopback port that nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return "http://" + addr + "/tools/search"
}

// resetServer accepts the request, then hijacks the connection and
// resets it (SO_LINGER 0) before answering.
func resetServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// stallServer never answers until the test ends.
func stallServer(t *testing.T) *httptest.Server {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

// call makes one real call and returns the Result of its Go error.
func call(t *testing.T, client *http.Client, ctx context.Context, method, url string) Result {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(`{"limit":5}`))
	require.NoError(t, err)
	resp, err := client.Do(req)
	if err == nil {
		_ = resp.Body.Close()
		t.Fatalf("%s %s: want a transport failure, got status %d", method, url, resp.StatusCode)
	}
	return FromError(err)
}

func TestFromErrorTransportFailures(t *testing.T) {
	short := &http.Client{Timeout: 200 * time.Millisecond}
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler()) // a certificate the client does not trust
	t.Cleanup(tlsSrv.Close)
	stall := stallServer(t)
	reset := resetServer(t)

	for _, c := range []struct {
		name      string
		do        func(t *testing.T) Result
		code      string
		category  toolerr.Category
		retryable bool
		detail    string
	}{
		{"refused GET", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodGet, refusedURL(t))
		}, toolerr.CodeToolUnavailable, toolerr.CategoryTransient, true, "The tool refused the connection."},
		{"refused POST: nothing was sent", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodPost, refusedURL(t))
		}, toolerr.CodeToolUnavailable, toolerr.CategoryTransient, true, "The tool refused the connection."},
		{"reset GET", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodGet, reset.URL)
		}, toolerr.CodeToolUnavailable, toolerr.CategoryTransient, true, ""},
		{"reset POST: it may have run", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodPost, reset.URL)
		}, toolerr.CodeToolUnavailable, toolerr.CategoryTransient, false, ""},
		{"client timeout GET", func(t *testing.T) Result {
			return call(t, short, context.Background(), http.MethodGet, stall.URL)
		}, toolerr.CodeToolTimeout, toolerr.CategoryTransient, true, "The tool did not answer in time."},
		{"context deadline GET", func(t *testing.T) Result {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			return call(t, http.DefaultClient, ctx, http.MethodGet, stall.URL)
		}, toolerr.CodeToolTimeout, toolerr.CategoryTransient, true, "The tool did not answer in time."},
		{"client timeout POST: it may have run", func(t *testing.T) Result {
			return call(t, short, context.Background(), http.MethodPost, stall.URL)
		}, toolerr.CodeToolTimeout, toolerr.CategoryTransient, false, "The tool did not answer in time."},
		{"cancelled", func(t *testing.T) Result {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return call(t, http.DefaultClient, ctx, http.MethodGet, stall.URL)
		}, toolerr.CodeCancelled, toolerr.CategoryCancelled, false, "The call was cancelled before the tool answered."},
		{"TLS certificate not trusted", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodGet, tlsSrv.URL)
		}, toolerr.CodeUpstreamMisconfigured, toolerr.CategoryUpstream, false, "The tool's TLS certificate or handshake was rejected."},
		{"DNS: no such host", func(t *testing.T) Result {
			return call(t, http.DefaultClient, context.Background(), http.MethodGet, "http://tools.search.invalid/tools/search")
		}, toolerr.CodeUpstreamMisconfigured, toolerr.CategoryUpstream, false, "The tool's host name does not resolve."},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.do(t)
			require.True(t, r.IsError)
			require.NotNil(t, r.Err)
			assert.Equal(t, c.code, r.Err.Code, r.Text)
			assert.Equal(t, c.category, r.Err.Category)
			assert.Equal(t, c.retryable, r.Err.Retryable)
			assert.NotEqual(t, toolerr.CodeInternal, r.Err.Code)
			assert.Nil(t, r.Err.Upstream, "the tool is what failed, not a vendor behind it")
			if c.detail != "" {
				assert.Equal(t, c.detail, r.Err.Detail)
			}
			assert.NotContains(t, r.Text, "downstream")
			assert.NotContains(t, r.Text, "127.0.0.1")
			assert.NotContains(t, r.Text, ".invalid")
			assert.NotContains(t, r.Text, "x509")
			assert.Equal(t, r.Err.Observation(), r.Text)
			require.NoError(t, toolerr.Validate(r.Err.WithRequestID("req-1").AppendJSON(nil)))
			assert.NotNil(t, errors.Unwrap(r.Err), "the Go error stays the cause, for logs")
			hint, _, _ := r.Err.RenderedHints()
			if !r.Err.Retryable && c.category == toolerr.CategoryTransient {
				assert.NotContains(t, hint, "Let the orchestrator retry", "a hint never contradicts retryable")
			}
		})
	}
}

// A call that carries an Idempotency-Key may be repeated whatever its
// method, so its timeout and its dropped connection are retryable.
func TestFromRequestErrorCountsTheIdempotencyKey(t *testing.T) {
	short := &http.Client{Timeout: 200 * time.Millisecond}
	for _, c := range []struct {
		name      string
		client    *http.Client
		url       string
		key       string
		code      string
		retryable bool
	}{
		{"timeout, POST with a key", short, stallServer(t).URL, "key-1", toolerr.CodeToolTimeout, true},
		{"timeout, POST without", short, stallServer(t).URL, "", toolerr.CodeToolTimeout, false},
		{"reset, POST with a key", http.DefaultClient, resetServer(t).URL, "key-2", toolerr.CodeToolUnavailable, true},
		{"refused, POST without", http.DefaultClient, refusedURL(t), "", toolerr.CodeToolUnavailable, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(`{}`))
			require.NoError(t, err)
			if c.key != "" {
				req.Header.Set("Idempotency-Key", c.key)
			}
			resp, err := c.client.Do(req)
			if err == nil {
				_ = resp.Body.Close()
				t.Fatal("want a transport failure")
			}
			r := FromRequestError(req, err)
			assert.Equal(t, c.code, r.Err.Code)
			assert.Equal(t, c.retryable, r.Err.Retryable)
		})
	}
	assert.Equal(t, FromError(context.Canceled), FromRequestError(nil, context.Canceled))
}

func TestFromErrorOwnErrors(t *testing.T) {
	// A tool's own deadline, with no network call behind it, is TOOL_TIMEOUT;
	// its method unknown, it is not called retryable.
	r := FromError(context.DeadlineExceeded)
	assert.Equal(t, toolerr.CodeToolTimeout, r.Err.Code)
	assert.False(t, r.Err.Retryable)
	assert.Equal(t, toolerr.CodeCancelled, FromError(context.Canceled).Err.Code)

	r = FromError(errors.New("dial db.internal:5432 with password " + secret))
	assert.Equal(t, toolerr.CodeInternal, r.Err.Code)
	assert.NotContains(t, r.Text, secret)
	assert.NotContains(t, r.Text, "db.internal")
}
