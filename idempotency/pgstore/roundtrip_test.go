package pgstore_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// tripCounter counts the network round trips of a pool: every query (in
// the statement-cache mode a cached statement is Bind/Execute/Sync, one
// trip; in the exec mode Parse/Bind/Describe/Execute/Sync, one trip) and
// every prepare (Parse/Describe/Sync, one trip more). It implements
// pgx.QueryTracer and pgx.PrepareTracer.
type tripCounter struct {
	mu       sync.Mutex
	queries  []string
	prepares int
}

// TraceQueryStart counts a query.
func (c *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	sql, _, _ := strings.Cut(d.SQL, "(")
	c.queries = append(c.queries, sql)
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (c *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TracePrepareStart counts a prepare.
func (c *tripCounter) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prepares++
	return ctx
}

// TracePrepareEnd implements pgx.PrepareTracer.
func (c *tripCounter) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

// take returns the round trips since the last take, and the queries.
func (c *tripCounter) take() (trips int, queries []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	trips, queries = len(c.queries)+c.prepares, c.queries
	c.queries, c.prepares = nil, 0
	return trips, queries
}

// TestMiddlewareRoundTrips: through the middleware a first execution costs
// two round trips (claim, complete) and a replay one (the claim that finds
// the completed record), as on Redis. In the pool's default mode
// (statement cache) that holds once the statements are prepared on the
// connection, which the warm-up does (one connection); in the exec mode it
// holds from the first call.
func TestMiddlewareRoundTrips(t *testing.T) {
	dsn := pgserver.Start(t)
	modes := []struct {
		name string
		mode pgx.QueryExecMode
		warm bool
	}{
		{"cache_statement", pgx.QueryExecModeCacheStatement, true},
		{"exec", pgx.QueryExecModeExec, false},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			counter := &tripCounter{}
			pool := newPool(t, dsn, 1, func(c *pgxpool.Config) {
				c.ConnConfig.Tracer = counter
				c.ConnConfig.DefaultQueryExecMode = m.mode
			})
			store := newStore(t, pool)
			counter.take() // the migration
			var runs atomic.Int32
			h := idempotency.Middleware(store, idempotency.WithLogger(quietLog))(labelHandler(&runs))
			if m.warm {
				require.Equal(t, http.StatusCreated, post(h, "warm-up").Code)
				trips, queries := counter.take()
				assert.Equal(t, 4, trips, "a cold connection prepares claim and complete first: %q", queries)
				require.Equal(t, http.StatusCreated, post(h, "warm-up").Code)
			}
			counter.take()

			require.Equal(t, http.StatusCreated, post(h, "k-1").Code)
			trips, queries := counter.take()
			assert.Equal(t, 2, trips, "first execution: %q", queries)

			rec := post(h, "k-1")
			require.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"))
			trips, queries = counter.take()
			assert.Equal(t, 1, trips, "replay: %q", queries)
		})
	}
}

// TestConformanceExecMode runs the suite with the pool in the exec mode
// (text-format parameters and results, never a prepare).
func TestConformanceExecMode(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 16, func(c *pgxpool.Config) {
		c.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
	})
	storetest.Run(t, func(t *testing.T) idempotency.Store { return newStore(t, pool) })
}
