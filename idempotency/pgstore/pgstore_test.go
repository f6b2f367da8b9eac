package pgstore_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/idempotency/storetest"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// tableSeq numbers the tables of a test run, so that stores sharing a
// server never share a table.
var tableSeq atomic.Int64

// uniqueTable returns a table name no other store of the run uses.
func uniqueTable() string {
	return fmt.Sprintf("idem_test_%d", tableSeq.Add(1))
}

// newPool opens a pool of at most maxConns connections to dsn, closed when
// the test ends; edit, when not nil, changes its config first.
func newPool(t testing.TB, dsn string, maxConns int32, edit func(*pgxpool.Config)) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(dsn)
	require.NoError(t, err)
	cfg.MaxConns = maxConns
	if edit != nil {
		edit(cfg)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// newStore returns a migrated store over pool, on a table of its own.
func newStore(t testing.TB, pool *pgxpool.Pool, opts ...pgstore.Option) *pgstore.Store {
	t.Helper()
	s := pgstore.New(pool, append([]pgstore.Option{pgstore.WithTable(uniqueTable())}, opts...)...)
	require.NoError(t, s.Migrate(context.Background()))
	return s
}

// quietLog discards the middleware's log lines.
var quietLog = slog.New(slog.DiscardHandler)

// labelHandler counts its runs and answers 201 with a label.
func labelHandler(runs *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1"}`)
	})
}

// post sends one request through h, with key as its Idempotency-Key when
// not empty.
func post(h http.Handler, key string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Oslo"}`))
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	req.Header.Set("Authorization", "Bearer agent-1")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestConformance runs the store conformance suite, unchanged, against a
// real Postgres: every subtest on a store of its own table, over one pool
// (the suite's 200 concurrent claims queue for its connections).
func TestConformance(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 16, nil)
	storetest.Run(t, func(t *testing.T) idempotency.Store { return newStore(t, pool) })
}

// TestSameKeyAtOnce: 200 requests with one key at once through the
// middleware run the handler exactly once.
func TestSameKeyAtOnce(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 16, nil)
	storetest.SameKeyAtOnce(t, newStore(t, pool), storetest.Concurrency)
}

// TestDuplicateGuard: the guard over the store blocks an accidental
// repeat (no key) with DUPLICATE_ACTION and lets another call through.
func TestDuplicateGuard(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 4, nil)
	store := newStore(t, pool)
	var runs atomic.Int32
	h := idempotency.DuplicateGuard(store, idempotency.WithLogger(quietLog))(labelHandler(&runs))
	require.Equal(t, http.StatusCreated, post(h, "").Code)
	rec := post(h, "")
	assert.Equal(t, http.StatusConflict, rec.Code)
	assert.Contains(t, rec.Body.String(), "DUPLICATE_ACTION")
	assert.EqualValues(t, 1, runs.Load(), "the repeat did not run")

	req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Bergen"}`))
	req.Header.Set("Authorization", "Bearer agent-1")
	other := httptest.NewRecorder()
	h.ServeHTTP(other, req)
	assert.Equal(t, http.StatusCreated, other.Code, "other arguments are another call")
	assert.EqualValues(t, 2, runs.Load())
}

// TestToolCalls runs the suite of idempotency.ToolCalls over a real
// Postgres.
func TestToolCalls(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 16, nil)
	storetest.RunToolCalls(t, func(t *testing.T) idempotency.Store { return newStore(t, pool) })
}
