package pgstore_test

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// requireUnavailable requires that rec is IDEMPOTENCY_UNAVAILABLE (503,
// retryable) without the store's address in it.
func requireUnavailable(t *testing.T, rec interface {
	Result() *http.Response
}, body []byte, addr string) {
	t.Helper()
	require.Equal(t, http.StatusServiceUnavailable, rec.Result().StatusCode, "%s", body)
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
	assert.True(t, e.Retryable)
	if addr != "" {
		assert.NotContains(t, string(body), addr, "the store's address never reaches the agent")
	}
}

// TestMiddlewareRefused: over a pool to a port nothing listens on, the
// middleware fails closed with IDEMPOTENCY_UNAVAILABLE and does not run
// the handler; configured to fail open, it runs it.
func TestMiddlewareRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	pool := newPool(t, "postgres://postgres@"+addr+"/postgres?sslmode=disable&connect_timeout=1", 2, nil)
	store := pgstore.New(pool)
	var runs atomic.Int32
	closed := idempotency.Middleware(store, idempotency.WithLogger(quietLog))(labelHandler(&runs))
	open := idempotency.Middleware(store, idempotency.WithLogger(quietLog), idempotency.FailOpen())(labelHandler(&runs))

	start := time.Now()
	rec := post(closed, "k-1")
	requireUnavailable(t, rec, rec.Body.Bytes(), addr)
	assert.Less(t, time.Since(start), 2*time.Second, "fails within about the store deadline")
	assert.EqualValues(t, 0, runs.Load(), "fail closed: the handler did not run")

	assert.Equal(t, http.StatusCreated, post(open, "k-1").Code, "fail open: it runs")
	assert.EqualValues(t, 1, runs.Load())
}

// TestMiddlewareLocked: while another transaction holds a lock that
// blocks writes to the table, a new key's claim waits on it past the store
// deadline: the middleware answers IDEMPOTENCY_UNAVAILABLE without running
// the handler, and the server ends the waiting statement too
// (lock_timeout) instead of leaving it queued behind the lock. A replay,
// which only reads, is still answered.
func TestMiddlewareLocked(t *testing.T) {
	dsn := pgserver.Start(t)
	pool := newPool(t, dsn, 4, nil)
	table := uniqueTable()
	store := pgstore.New(pool, pgstore.WithTable(table))
	require.NoError(t, store.Migrate(t.Context()))
	var runs atomic.Int32
	h := idempotency.Middleware(store, idempotency.WithLogger(quietLog), idempotency.WithStoreTimeout(200*time.Millisecond))(labelHandler(&runs))
	require.Equal(t, http.StatusCreated, post(h, "k-1").Code)

	locker := newPool(t, dsn, 2, nil)
	tx, err := locker.Begin(t.Context())
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(context.Background()) }()
	_, err = tx.Exec(t.Context(), `LOCK TABLE "public"."`+table+`" IN SHARE MODE`)
	require.NoError(t, err)

	start := time.Now()
	rec := post(h, "k-2")
	requireUnavailable(t, rec, rec.Body.Bytes(), "")
	assert.Less(t, time.Since(start), time.Second, "within about the store deadline")
	assert.EqualValues(t, 1, runs.Load(), "the handler did not run")
	assert.Equal(t, "true", post(h, "k-1").Header().Get("Idempotent-Replayed"), "a replay only reads")

	// The server gave up waiting on its own (lock_timeout), while the
	// lock is still held.
	assert.Eventually(t, func() bool {
		var waiting int
		err := locker.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'`).Scan(&waiting)
		return err == nil && waiting == 0
	}, 3*time.Second, 20*time.Millisecond, "no statement left waiting on the lock")

	require.NoError(t, tx.Rollback(t.Context()))
	assert.Equal(t, http.StatusCreated, post(h, "k-2").Code, "runs once the lock is gone")
	assert.EqualValues(t, 2, runs.Load())
}

// TestStoreTimeout: the store's own timeout ends a call that waits on a
// row lock even when the caller's context has no deadline, with an error
// that is not a lost claim. The server gives up first (lock_timeout, a
// little shorter than the deadline), so the abandoned calls take no effect
// once the lock is released.
func TestStoreTimeout(t *testing.T) {
	dsn := pgserver.Start(t)
	pool := newPool(t, dsn, 4, nil)
	table := uniqueTable()
	store := pgstore.New(pool, pgstore.WithTable(table), pgstore.WithTimeout(150*time.Millisecond))
	require.NoError(t, store.Migrate(t.Context()))
	c, err := store.Claim(t.Context(), "k", "fp", time.Minute)
	require.NoError(t, err)
	require.True(t, c.Claimed)
	lapsed, err := store.Claim(t.Context(), "lapsed", "fp", time.Millisecond)
	require.NoError(t, err)
	require.True(t, lapsed.Claimed)
	time.Sleep(10 * time.Millisecond)

	tx, err := newPool(t, dsn, 1, nil).Begin(t.Context())
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(context.Background()) }()
	_, err = tx.Exec(t.Context(), `SELECT 1 FROM "public"."`+table+`" FOR UPDATE`)
	require.NoError(t, err)

	calls := map[string]func() error{
		"claim": func() error {
			_, err := store.Claim(context.Background(), "lapsed", "fp", time.Minute)
			return err
		},
		"complete": func() error {
			return store.Complete(context.Background(), "k", c.Token, idempotency.Response{Status: 200}, time.Hour)
		},
		"release": func() error { return store.Release(context.Background(), "k", c.Token) },
	}
	for name, call := range calls {
		start := time.Now()
		err := call()
		require.Error(t, err, name)
		var pgErr *pgconn.PgError
		if assert.ErrorAs(t, err, &pgErr, name) {
			assert.Equal(t, "55P03", pgErr.Code, "the server gave up first (lock_timeout): %v", err)
		}
		assert.NotErrorIs(t, err, idempotency.ErrLostClaim, name)
		assert.Less(t, time.Since(start), time.Second, name)
	}
	require.NoError(t, tx.Rollback(t.Context()))
	require.NoError(t, store.Complete(t.Context(), "k", c.Token, idempotency.Response{Status: 200}, time.Hour), "the claim still holds")
	_, ok, err := store.Get(t.Context(), "lapsed")
	require.NoError(t, err)
	assert.False(t, ok, "the abandoned claim did not take the lapsed key over")
}

// TestNilPool: a store without a pool answers errors, never panics.
func TestNilPool(t *testing.T) {
	s := pgstore.New(nil)
	_, err := s.Claim(t.Context(), "k", "fp", time.Second)
	assert.Error(t, err)
	assert.Error(t, s.Complete(t.Context(), "k", 1, idempotency.Response{}, time.Second))
	assert.Error(t, s.Release(t.Context(), "k", 1))
	_, _, err = s.Get(t.Context(), "k")
	assert.Error(t, err)
	_, err = s.Sweep(t.Context())
	assert.Error(t, err)
	assert.Error(t, s.Migrate(t.Context()))
	var nilStore *pgstore.Store
	_, err = nilStore.Claim(t.Context(), "k", "fp", time.Second)
	assert.Error(t, err)
}
