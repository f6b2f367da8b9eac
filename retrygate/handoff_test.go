package retrygate_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/retrygate"
	"github.com/toolerr/toolerr/translate"
)

// vendor is a downstream that answers 503 until it recovers.
type vendor struct {
	hits      atomic.Int64
	recovered atomic.Bool
}

func (v *vendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v.hits.Add(1)
	if v.recovered.Load() {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"quote":42}`)
		return
	}
	http.Error(w, "upstream temporarily unavailable", http.StatusServiceUnavailable)
}

// toolStack is the tool server of the issue: a tool under middleware.New()
// whose HTTP client is retrygate.Transport with its defaults, returning
// translate.Response's error. handlerAttempts records retrygate.Attempts of
// each error the handler returned.
type toolStack struct {
	srv             *httptest.Server
	mu              sync.Mutex
	handlerAttempts []int
}

func newToolStack(t *testing.T, vendorURL string, opts ...retrygate.Option) *toolStack {
	t.Helper()
	ts := &toolStack{}
	client := &http.Client{Transport: retrygate.Transport(nil, opts...)}
	mux := http.NewServeMux()
	mux.Handle("POST /tools/get_quote", middleware.Tool("get_quote", func(w http.ResponseWriter, r *http.Request) error {
		req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, vendorURL+"/v1/quote", nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if err := translate.Response(resp); err != nil {
			ts.mu.Lock()
			ts.handlerAttempts = append(ts.handlerAttempts, retrygate.Attempts(err))
			ts.mu.Unlock()
			return err
		}
		w.Header().Set("Content-Type", "application/json")
		_, err = io.Copy(w, resp.Body)
		return err
	}))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ts.srv = httptest.NewServer(middleware.New(middleware.WithLogger(quiet))(mux))
	t.Cleanup(ts.srv.Close)
	return ts
}

// callTool is the orchestrator's operation: one tool call, whose error is
// the *toolerr.Error parsed from the problem+json the agent receives.
func callTool(url string, bodies *[]map[string]any) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/tools/get_quote", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode < 400 {
			return nil
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err == nil && bodies != nil {
			*bodies = append(*bodies, m)
		}
		e, err := toolerr.Parse(body)
		if err != nil {
			return err
		}
		return e
	}
}

// TestRetriesDoNotMultiplyAcrossLayers is the end-to-end case: the
// vendor always answers 503; the tool server is on retrygate.Transport's
// defaults; the orchestrator runs retrygate.Do's defaults and obeys the
// error. The vendor is hit at most 4 times per task.
func TestRetriesDoNotMultiplyAcrossLayers(t *testing.T) {
	v := &vendor{}
	vs := httptest.NewServer(v)
	defer vs.Close()
	tool := newToolStack(t, vs.URL)

	var bodies []map[string]any
	err := retrygate.Do(context.Background(), retrygate.DefaultPolicy(), callTool(tool.srv.URL, &bodies))
	require.Error(t, err)
	assert.LessOrEqual(t, v.hits.Load(), int64(4), "vendor calls per task")
	assert.Equal(t, int64(4), v.hits.Load(), "3 by the tool's first call, 1 by the agent's one retry")
	assert.Equal(t, 2, retrygate.Attempts(err), "the orchestrator's own attempts")

	require.Len(t, bodies, 2)
	first := bodies[0]
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, first["code"])
	assert.Equal(t, true, first["retryable"], "the vendor may recover: one more call is worth it")
	assert.EqualValues(t, 3, first["upstream"].(map[string]any)["attempts"], "the tool server says it already called 3 times")
	assert.EqualValues(t, 2, first["retry_policy"].(map[string]any)["max_attempts"], "and allows one more call, not three")
	assert.Greater(t, first["retry_after_ms"], 0.0, "after the Transport's next backoff")
	second := bodies[1]
	assert.EqualValues(t, 1, second["upstream"].(map[string]any)["attempts"], "the agent's retry went out once")
	assert.EqualValues(t, 2, second["retry_policy"].(map[string]any)["max_attempts"])

	tool.mu.Lock()
	assert.Equal(t, []int{3, 1}, tool.handlerAttempts, "retrygate.Attempts works on translate.Response's error")
	tool.mu.Unlock()

	// A second task finds the vendor still down: the Transport's mark
	// keeps each of its calls to one vendor call, so the task costs 2.
	before := v.hits.Load()
	require.Error(t, retrygate.Do(context.Background(), retrygate.DefaultPolicy(), callTool(tool.srv.URL, nil)))
	assert.Equal(t, int64(2), v.hits.Load()-before)
}

// TestHandoffRecoveryWithinRetryAfter: the vendor recovers within the
// retry_after_ms the first error advertised; the agent's one retry, made
// after that delay, succeeds.
func TestHandoffRecoveryWithinRetryAfter(t *testing.T) {
	v := &vendor{}
	vs := httptest.NewServer(v)
	defer vs.Close()
	tool := newToolStack(t, vs.URL)

	op := callTool(tool.srv.URL, nil)
	calls := 0
	err := retrygate.Do(context.Background(), retrygate.DefaultPolicy(), func(ctx context.Context) error {
		calls++
		err := op(ctx)
		if e, ok := toolerr.From(err); ok && calls == 1 {
			require.Positive(t, e.RetryAfter)
			time.AfterFunc(e.RetryAfter/2, func() { v.recovered.Store(true) })
		}
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 2, calls)
	assert.Equal(t, int64(4), v.hits.Load(), "3 then 1")

	// The success cleared the mark: the next failure gets full retries.
	v.recovered.Store(false)
	before := v.hits.Load()
	require.Error(t, op(context.Background()))
	assert.Equal(t, int64(3), v.hits.Load()-before)
}

// TestWithoutHandoffEveryCallRetries: with the handoff off, every call
// gets full retries and the error keeps the code's own policy, while still
// reporting the attempts.
func TestWithoutHandoffEveryCallRetries(t *testing.T) {
	v := &vendor{}
	vs := httptest.NewServer(v)
	defer vs.Close()
	tool := newToolStack(t, vs.URL, retrygate.WithoutHandoff())

	var bodies []map[string]any
	op := callTool(tool.srv.URL, &bodies)
	require.Error(t, op(context.Background()))
	require.Error(t, op(context.Background()))
	assert.Equal(t, int64(6), v.hits.Load())
	require.Len(t, bodies, 2)
	for _, b := range bodies {
		assert.EqualValues(t, 3, b["upstream"].(map[string]any)["attempts"])
		assert.EqualValues(t, 3, b["retry_policy"].(map[string]any)["max_attempts"], "the code's own policy")
	}
}

// TestUnretriedCallReportsNoAttempts: a POST without an idempotency key is
// sent once and not retried; its error does not claim retries.
func TestUnretriedCallReportsNoAttempts(t *testing.T) {
	v := &vendor{}
	vs := httptest.NewServer(v)
	defer vs.Close()
	client := &http.Client{Transport: retrygate.Transport(nil)}
	resp, err := client.Post(vs.URL, "application/json", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	e, ok := toolerr.From(translate.Response(resp))
	require.True(t, ok)
	require.NotNil(t, e.Upstream)
	assert.Zero(t, e.Upstream.Attempts)
	assert.Zero(t, retrygate.Attempts(e))
	assert.Equal(t, int64(1), v.hits.Load())
}

// resettingHost accepts connections and closes them at once, counting
// them: a vendor whose calls all fail with no response.
func resettingHost(t *testing.T) (url string, accepts *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	accepts = &atomic.Int64{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepts.Add(1)
			_ = c.Close()
		}
	}()
	return "http://" + ln.Addr().String(), accepts
}

// TestNetworkFailuresDoNotMultiplyAcrossLayers: the same bound when no
// response ever arrives, and the Transport's error, not translate's,
// reaches the agent.
func TestNetworkFailuresDoNotMultiplyAcrossLayers(t *testing.T) {
	url, accepts := resettingHost(t)
	tool := newToolStack(t, url)

	var bodies []map[string]any
	err := retrygate.Do(context.Background(), retrygate.DefaultPolicy(), callTool(tool.srv.URL, &bodies))
	require.Error(t, err)
	assert.Equal(t, int64(4), accepts.Load(), "3 by the tool's first call, 1 by the agent's one retry")
	require.Len(t, bodies, 2)
	first := bodies[0]
	assert.Equal(t, true, first["retryable"], "%v", first)
	assert.EqualValues(t, 3, first["upstream"].(map[string]any)["attempts"])
	assert.EqualValues(t, 2, first["retry_policy"].(map[string]any)["max_attempts"])
	assert.Greater(t, first["retry_after_ms"], 0.0)
}
