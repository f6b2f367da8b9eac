package redisstore_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest"
)

// labelHandler counts its runs and answers 201 with a label.
func labelHandler(runs *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1"}`)
	})
}

// post sends one keyed request through h.
func post(h http.Handler, key string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Oslo"}`))
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("Authorization", "Bearer agent-1")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var quietLog = slog.New(slog.DiscardHandler)

// TestMiddlewareRoundTrips: a first execution costs two round trips to
// Redis (claim, complete) and a replay one (the claim that finds the
// completed record).
func TestMiddlewareRoundTrips(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	hook := &countingHook{}
	client.AddHook(hook)
	var runs atomic.Int32
	h := idempotency.Middleware(redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix())), idempotency.WithLogger(quietLog))(labelHandler(&runs))
	require.Equal(t, 201, post(h, "warm-up").Code) // loads the scripts into the server's cache
	hook.take()

	require.Equal(t, 201, post(h, "k-1").Code)
	trips, cmds := hook.take()
	assert.Equal(t, 2, trips, "first execution: %v", cmds)

	rec := post(h, "k-1")
	require.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"))
	trips, cmds = hook.take()
	assert.Equal(t, 1, trips, "replay: %v", cmds)
	assert.EqualValues(t, 2, runs.Load())
}

// TestMiddlewareRedisStopped: with Redis gone mid-test, the middleware
// fails closed with IDEMPOTENCY_UNAVAILABLE, or lets the call through when
// configured to fail open.
func TestMiddlewareRedisStopped(t *testing.T) {
	addr, stop := redistest.Start(t)
	client := newClient(t, addr)
	store := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	var runs atomic.Int32
	closed := idempotency.Middleware(store, idempotency.WithLogger(quietLog))(labelHandler(&runs))
	open := idempotency.Middleware(store, idempotency.WithLogger(quietLog), idempotency.FailOpen())(labelHandler(&runs))
	require.Equal(t, 201, post(closed, "before").Code)

	stop()
	rec := post(closed, "after")
	assert.Equal(t, 503, rec.Code)
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.NotContains(t, rec.Body.String(), addr, "the store's address never reaches the agent")
	assert.EqualValues(t, 1, runs.Load(), "fail closed: the handler did not run")

	assert.Equal(t, 201, post(open, "after").Code, "fail open: it runs")
	assert.EqualValues(t, 2, runs.Load())
}

// BenchmarkMiddlewareRedis measures a first execution and a replay through
// the middleware over a real redis-server on loopback.
func BenchmarkMiddlewareRedis(b *testing.B) {
	addr, _ := redistest.Start(b)
	client := newClient(b, addr)
	storetest.BenchmarkMiddleware(b, redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix())))
}

// unreachableAddrs returns Redis addresses that never answer: a closed
// loopback port (refused at once), a listener that accepts and never
// answers (a hung server), and a documentation address (RFC 5737) that is
// black-holed or unroutable.
func unreachableAddrs(t *testing.T) map[string]string {
	t.Helper()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedAddr := closed.Addr().String()
	require.NoError(t, closed.Close())

	hung, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := hung.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held open, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = hung.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return map[string]string{"closed port": closedAddr, "hung server": hung.Addr().String(), "black hole": "192.0.2.1:6379"}
}

// TestMiddlewareRedisUnreachable is the reported break: with Redis
// unreachable, the fail-closed 503 took about 1.7 s, spent in the client's
// dialling and retries. With a client on go-redis's defaults and a store
// deadline of 200 ms, Middleware answers 503 and DuplicateGuard lets the
// call through, each well within a second.
func TestMiddlewareRedisUnreachable(t *testing.T) {
	const timeout, bound = 200 * time.Millisecond, time.Second
	for name, addr := range unreachableAddrs(t) {
		t.Run(name, func(t *testing.T) {
			client := redis.NewClient(&redis.Options{Addr: addr}) // the defaults a service starts with
			t.Cleanup(func() { _ = client.Close() })
			store := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
			var runs atomic.Int32
			mws := []struct {
				name   string
				h      http.Handler
				key    string
				status int
			}{
				{"middleware", idempotency.Middleware(store, idempotency.WithLogger(quietLog), idempotency.WithStoreTimeout(timeout))(labelHandler(&runs)), "k-1", 503},
				{"guard", idempotency.DuplicateGuard(store, idempotency.WithLogger(quietLog), idempotency.WithStoreTimeout(timeout))(labelHandler(&runs)), "", 201},
			}
			for _, mw := range mws {
				start := time.Now()
				rec := post(mw.h, mw.key)
				elapsed := time.Since(start)
				assert.Equal(t, mw.status, rec.Code, mw.name)
				assert.Less(t, elapsed, bound, "%s answered in %v", mw.name, elapsed)
				if mw.status == 503 {
					e, err := toolerr.Parse(rec.Body.Bytes())
					require.NoError(t, err)
					assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
					assert.NotContains(t, rec.Body.String(), addr)
				}
			}
			assert.EqualValues(t, 1, runs.Load(), "only the guard's call ran")
		})
	}
}
