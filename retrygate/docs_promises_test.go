package retrygate

// Promises of retrygate in docs/ (retrygate.md, options.md), checked on
// its defaults: DefaultPolicy() as it comes, and Transport(nil) with no
// options on the real clock. Each test also checks that its page still
// says what it checks.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
)

// "retrygate.DefaultPolicy() and retrygate.Transport(base, opts…)" table:
// MaxAttempts 3; 200 ms, ×2, 10 s; RandomizationFactor 1; MaxServerDelay
// 60 s; RetryInternal false; Budget on with 10 tokens.
func TestOptionsPageDefaultPolicyTable(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `Policy.MaxAttempts` | 3 in total |",
		"| `Policy.InitialInterval`, `Multiplier`, `MaxInterval` | 200 ms, ×2, 10 s |",
		"| `Policy.RandomizationFactor` | 1 (full jitter) |",
		"| `Policy.MaxServerDelay` | 60 s |",
		"| `Policy.RetryInternal` | false |",
		"| `Policy.Budget` | on: `NewBudget(BudgetSettings{})`, 10 tokens,")
	p := DefaultPolicy()
	assert.Equal(t, 3, p.MaxAttempts)
	assert.Equal(t, 200*time.Millisecond, p.InitialInterval)
	assert.Equal(t, 2.0, p.Multiplier)
	assert.Equal(t, 10*time.Second, p.MaxInterval)
	assert.Equal(t, 1.0, p.RandomizationFactor)
	assert.Equal(t, 60*time.Second, p.MaxServerDelay)
	assert.False(t, p.RetryInternal)
	assert.False(t, p.NoBudget)
	require.NotNil(t, p.Budget)
	assert.InDelta(t, 10, p.Budget.Tokens(), 1e-9)
	assert.Nil(t, p.Clock)
}

// hitCounter is a host that answers every request with status and records
// the Idempotency-Key of each.
type hitCounter struct {
	*httptest.Server
	mu   sync.Mutex
	keys []string
}

func newHitCounter(t *testing.T, status int, body string, kv ...string) *hitCounter {
	t.Helper()
	h := &hitCounter{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		h.mu.Lock()
		h.keys = append(h.keys, r.Header.Get("Idempotency-Key"))
		h.mu.Unlock()
		for i := 0; i+1 < len(kv); i += 2 {
			w.Header().Set(kv[i], kv[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hitCounter) Keys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.keys...)
}

// "Transport: retries GET, HEAD, OPTIONS, PUT and DELETE, and POST or PATCH
// only with an idempotency key, sending the same key on every attempt";
// "MaxAttempts | 3 in total"; "It returns the vendor's own last response".
// The host asks for a 1 ms wait (retry-after-ms), which "replaces the
// computed wait".
func TestRetrygatePageTransportDefaultsRetryIdempotentCallsThreeTimes(t *testing.T) {
	docpage.Says(t, "../docs/retrygate.md",
		"retries GET, HEAD, OPTIONS, PUT and DELETE, and POST or PATCH only with an idempotency key, sending the same key on every attempt",
		"It returns the vendor's own last response, so callers still see it, and an error only when no response arrived.",
		"A server delay (`retry_after_ms`, `Retry-After`) replaces the computed wait")
	docpage.Says(t, "../docs/options.md",
		"| `Policy.MaxAttempts` | 3 in total |")
	for _, tc := range []struct {
		method, key string
		hits        int
	}{
		{http.MethodGet, "", 3},
		{http.MethodPut, "", 3},
		{http.MethodDelete, "", 3},
		{http.MethodPost, "", 1},
		{http.MethodPatch, "", 1},
		{http.MethodPost, "lbl-7f3a9c", 3},
	} {
		t.Run(tc.method+" "+tc.key, func(t *testing.T) {
			host := newHitCounter(t, http.StatusServiceUnavailable, "carrier busy", "retry-after-ms", "1")
			c := &http.Client{Transport: Transport(nil)}
			req, err := http.NewRequest(tc.method, host.URL+"/labels", strings.NewReader(`{"order":"o-1"}`))
			require.NoError(t, err)
			if tc.key != "" {
				req.Header.Set("Idempotency-Key", tc.key)
			}
			resp, err := c.Do(req)
			require.NoError(t, err, "a response arrived: no error")
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
			assert.Equal(t, "carrier busy", string(b), "the vendor's own last response")
			keys := host.Keys()
			assert.Len(t, keys, tc.hits)
			for _, k := range keys {
				assert.Equal(t, tc.key, k, "the same key on every attempt")
			}
		})
	}
}

// "Only a failure whose error says retryable … is tried again. Validation,
// not_found, auth, permission, precondition, conflict, policy and upstream
// failures come back after one attempt", through Transport(nil).
func TestRetrygatePageTransportDefaultsDoNotRetryNonRetryable(t *testing.T) {
	docpage.Says(t, "../docs/retrygate.md",
		"Only a failure whose error says `retryable` (rate_limit, transient; internal by option) is tried again. Validation, not_found, auth, permission, precondition, conflict, policy and upstream failures come back after one attempt.")
	for _, status := range []int{400, 401, 403, 404, 409, 412, 422, 451, 501} {
		host := newHitCounter(t, status, `{"message":"no"}`, "Content-Type", "application/json")
		c := &http.Client{Transport: Transport(nil)}
		resp, err := c.Get(host.URL)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, status, resp.StatusCode)
		assert.Len(t, host.Keys(), 1, "status %d: one attempt", status)
	}
}

// "Breaker: one per host … opens when at least 80 % of at least 20 calls
// in a rolling 10 s window failed … not on a short streak … While open (5 s)
// it answers CIRCUIT_OPEN, with retry_after_ms until half-open, without
// touching the host" ("WithBreakers … | on"), with Transport(nil). POSTs
// without a key are sent once each, so each call is one attempt.
func TestRetrygatePageTransportDefaultBreakerOpensAfterTwentyFailedCalls(t *testing.T) {
	docpage.Says(t, "../docs/retrygate.md",
		"It opens when at least 80 % of at least 20 calls in a rolling 10 s window failed with a transient or upstream failure",
		"not on a short streak",
		"While open (5 s) it answers `CIRCUIT_OPEN`, with `retry_after_ms` until half-open, without touching the host")
	docpage.Says(t, "../docs/options.md",
		"| `WithBreakers(NewBreakers(BreakerSettings{}))` | on: opens at 80 % failures over at least 20 calls in a 10 s window, open 5 s,")
	host := newHitCounter(t, http.StatusServiceUnavailable, "down")
	c := &http.Client{Transport: Transport(nil)}
	post := func() (*http.Response, error) {
		return c.Post(host.URL+"/charges", "application/json", strings.NewReader(`{}`))
	}
	for i := range 20 {
		resp, err := post()
		require.NoError(t, err, "call %d reaches the host: the breaker is closed below 20 calls", i+1)
		resp.Body.Close()
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	}
	require.Len(t, host.Keys(), 20)
	start := time.Now()
	resp, err := post()
	if resp != nil {
		resp.Body.Close()
	}
	require.Error(t, err, "no response: the host is not touched")
	var e *toolerr.Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, toolerr.CodeCircuitOpen, e.Code)
	assert.Len(t, host.Keys(), 20)
	open := 5*time.Second - time.Since(start)
	assert.Greater(t, e.RetryAfter, time.Duration(0))
	assert.LessOrEqual(t, e.RetryAfter, 5*time.Second, "until half-open, at most the 5 s open period")
	assert.Greater(t, e.RetryAfter, open-2*time.Second, "close to the rest of the 5 s open period")
}

// "A server delay (retry_after_ms, Retry-After) replaces the computed wait,
// capped at 60 s" ("Policy.MaxServerDelay | 60 s"), with DefaultPolicy().
// The hook observes the wait and ends the call.
func TestRetrygatePageDoCapsServerDelayAtSixtySeconds(t *testing.T) {
	docpage.Says(t, "../docs/retrygate.md",
		"A server delay (`retry_after_ms`, `Retry-After`) replaces the computed wait, capped at 60 s.")
	docpage.Says(t, "../docs/options.md",
		"| `Policy.MaxServerDelay` | 60 s |")
	p := DefaultPolicy()
	var waits []time.Duration
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.OnRetry = func(ev RetryEvent) {
		waits = append(waits, ev.Delay)
		cancel() // no need to sleep the minute
	}
	var calls atomic.Int32
	err := Do(ctx, p, func(context.Context) error {
		calls.Add(1)
		return toolerr.Default().New(toolerr.CodeRateLimited, "Try again in 5 minutes.").WithRetryAfter(5 * time.Minute)
	})
	require.Error(t, err)
	assert.Equal(t, []time.Duration{60 * time.Second}, waits)
	assert.EqualValues(t, 1, calls.Load())
}

// "Policy.RetryInternal | false": an INTERNAL_ERROR comes back after one
// attempt with DefaultPolicy().
func TestOptionsPageDoDoesNotRetryInternalByDefault(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `Policy.RetryInternal` | false |")
	docpage.Says(t, "../docs/retrygate.md",
		"(rate_limit, transient; internal by option)")
	var calls atomic.Int32
	err := Do(context.Background(), DefaultPolicy(), func(context.Context) error {
		calls.Add(1)
		return toolerr.Default().New(toolerr.CodeInternal, "")
	})
	require.Error(t, err)
	assert.EqualValues(t, 1, calls.Load())
	assert.Equal(t, 1, Attempts(err))
}
