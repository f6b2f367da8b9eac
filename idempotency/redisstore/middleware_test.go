package redisstore_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

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
