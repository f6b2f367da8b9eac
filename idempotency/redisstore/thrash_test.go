package redisstore_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest"
	"github.com/toolerr/toolerr/middleware"
)

// TestFailureCounterConformance runs the suite of
// idempotency.FailureCounter against a real server.
func TestFailureCounterConformance(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	storetest.RunFailureCounter(t, func(t *testing.T) idempotency.FailureCounter {
		s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
		t.Cleanup(func() { require.NoError(t, s.Close()) })
		return s
	})
}

// replica is one service instance: the toolerr middleware, the thrash
// guard over the shared store, and a tool that fails with the code the
// arguments name ({"fail":"NOT_FOUND"}), or succeeds.
type replica struct {
	srv  *httptest.Server
	runs atomic.Int32
}

func newReplica(t *testing.T, counter idempotency.FailureCounter, opts ...idempotency.Option) *replica {
	rp := &replica{}
	tool := middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		rp.runs.Add(1)
		b, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(string(b), toolerr.CodeNotFound):
			return toolerr.Default().New(toolerr.CodeNotFound, "No such order.")
		case strings.Contains(string(b), toolerr.CodeRateLimited):
			return toolerr.Default().New(toolerr.CodeRateLimited, "").WithRetryAfter(time.Second)
		}
		w.WriteHeader(http.StatusCreated)
		return nil
	})
	r := chi.NewRouter()
	r.Use(middleware.New(middleware.WithLogger(quietLog)),
		idempotency.ThrashGuard(counter, append([]idempotency.Option{idempotency.WithLogger(quietLog)}, opts...)...))
	r.Method(http.MethodPost, "/tools/get_order", tool)
	rp.srv = httptest.NewServer(r)
	t.Cleanup(rp.srv.Close)
	return rp
}

// callTool posts body to the replica as the caller auth.
func (rp *replica) call(t *testing.T, auth, body string) (int, *toolerr.Error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, rp.srv.URL+"/tools/get_order", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	resp, err := rp.srv.Client().Do(req)
	require.NoError(t, err)
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode < 400 {
		return resp.StatusCode, nil
	}
	e, err := toolerr.Parse(b)
	require.NoError(t, err, string(b))
	return resp.StatusCode, e
}

// TestThrashGuardAcrossReplicas: two instances of a service share the
// Redis store; the identical call that failed twice on one is refused on
// the other, and neither retryable failures nor other arguments are
// refused.
func TestThrashGuardAcrossReplicas(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	prefix := uniquePrefix()
	a := newReplica(t, redisstore.New(client, redisstore.WithKeyPrefix(prefix)))
	b := newReplica(t, redisstore.New(client, redisstore.WithKeyPrefix(prefix)))

	const failing = `{"id":"ord-9","fail":"NOT_FOUND"}`
	for range 2 {
		status, e := a.call(t, "Bearer agent-1", failing)
		require.Equal(t, 404, status)
		require.Equal(t, toolerr.CodeNotFound, e.Code)
	}
	status, e := b.call(t, "Bearer agent-1", `{"fail":"NOT_FOUND", "id":"ord-9"}`)
	require.Equal(t, http.StatusConflict, status)
	assert.Equal(t, toolerr.CodeRepeatedFailure, e.Code)
	assert.Equal(t, "get_order", e.Tool)
	assert.Equal(t, toolerr.CodeNotFound, e.Details["repeated_code"])
	assert.EqualValues(t, 0, b.runs.Load(), "the refused call did not run")
	status, _ = a.call(t, "Bearer agent-1", failing)
	assert.Equal(t, http.StatusConflict, status, "refused on the first replica too")
	assert.EqualValues(t, 2, a.runs.Load())

	// The run expires a window (10 minutes) after its first failure: the
	// refusals did not extend it.
	keys, err := client.Keys(t.Context(), prefix+"thrash:*").Result()
	require.NoError(t, err)
	require.Len(t, keys, 1, "one run, for the one call")
	ttl, err := client.PTTL(t.Context(), keys[0]).Result()
	require.NoError(t, err)
	assert.Greater(t, ttl, 9*time.Minute)
	assert.LessOrEqual(t, ttl, idempotency.DefaultThrashWindow)
	n, err := client.HGet(t.Context(), keys[0], "n").Int()
	require.NoError(t, err)
	assert.Equal(t, 2, n, "a refusal is not counted")

	status, _ = b.call(t, "Bearer agent-1", `{"id":"ord-8","fail":"NOT_FOUND"}`)
	assert.Equal(t, 404, status, "other arguments run")
	status, _ = b.call(t, "Bearer agent-2", failing)
	assert.Equal(t, 404, status, "another caller runs")
	for range 4 {
		status, _ = a.call(t, "Bearer agent-1", `{"id":"ord-9","fail":"RATE_LIMITED"}`)
		assert.Equal(t, 429, status, "retryable failures are never refused")
	}
	assert.EqualValues(t, 6, a.runs.Load())
}

// TestThrashGuardSuccessClearsAcrossReplicas: a success on one replica
// clears the run the other counted.
func TestThrashGuardSuccessClearsAcrossReplicas(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	// The same call fails or succeeds by the state behind the tool
	// (fail), as a lookup that finds an order once it is created.
	counter := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	fail := atomic.Bool{}
	fail.Store(true)
	mk := func() *httptest.Server {
		r := chi.NewRouter()
		r.Use(middleware.New(middleware.WithLogger(quietLog)), idempotency.ThrashGuard(counter, idempotency.WithLogger(quietLog)))
		r.Method(http.MethodPost, "/tools/get_order", middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
			if fail.Load() {
				return toolerr.Default().New(toolerr.CodeNotFound, "")
			}
			return nil
		}))
		srv := httptest.NewServer(r)
		t.Cleanup(srv.Close)
		return srv
	}
	one, two := &replica{srv: mk()}, &replica{srv: mk()}
	status, _ := one.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	require.Equal(t, 404, status)
	fail.Store(false)
	status, _ = two.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	require.Equal(t, 200, status)
	// A success that wrote nothing is known once the request is done: the
	// run is cleared then, off the request's path.
	require.Eventually(t, func() bool {
		return keysOf(t, client, "*thrash:*") == 0
	}, 5*time.Second, 5*time.Millisecond)
	fail.Store(true)
	status, _ = one.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	require.Equal(t, 404, status)
	status, _ = two.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	assert.Equal(t, 404, status, "one failure since the success: it runs")
	status, _ = one.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	assert.Equal(t, 409, status)
}

// TestThrashGuardRedisUnreachable: with Redis unreachable, every call
// runs, within the store deadline, with one log line each.
func TestThrashGuardRedisUnreachable(t *testing.T) {
	const timeout, bound = 200 * time.Millisecond, time.Second
	for name, addr := range unreachableAddrs(t) {
		t.Run(name, func(t *testing.T) {
			client := redis.NewClient(&redis.Options{Addr: addr})
			t.Cleanup(func() { _ = client.Close() })
			var logs lockedBuffer
			logger := slog.New(slog.NewTextHandler(&logs, nil))
			rp := newReplica(t, redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix())),
				idempotency.WithStoreTimeout(timeout), idempotency.WithLogger(logger))
			for range 3 {
				start := time.Now()
				status, e := rp.call(t, "Bearer agent-1", `{"id":"ord-9","fail":"NOT_FOUND"}`)
				assert.Less(t, time.Since(start), bound)
				require.Equal(t, 404, status)
				assert.Equal(t, toolerr.CodeNotFound, e.Code)
			}
			assert.EqualValues(t, 3, rp.runs.Load(), "a store that is down never blocks a tool")
			assert.Equal(t, 3, strings.Count(logs.String(), "thrash guard skipped: store unavailable"), logs.String())
		})
	}
}

// keysOf counts the keys matching pattern.
func keysOf(t *testing.T, client *redis.Client, pattern string) int {
	keys, err := client.Keys(t.Context(), pattern).Result()
	require.NoError(t, err)
	return len(keys)
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
