package pgstore_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// TestMigrationSQL: the script quotes every name and derives the names of
// the sequence, index and functions from the table.
func TestMigrationSQL(t *testing.T) {
	sql := pgstore.MigrationSQL("app", "idem")
	for _, want := range []string{
		`CREATE TABLE IF NOT EXISTS "app"."idem"`,
		`CREATE SEQUENCE IF NOT EXISTS "app"."idem_token_seq"`,
		`CREATE INDEX IF NOT EXISTS "idem_expires_at_idx" ON "app"."idem" (expires_at)`,
		`CREATE OR REPLACE FUNCTION "app"."idem_claim"`,
		`CREATE OR REPLACE FUNCTION "app"."idem_complete"`,
		`CREATE OR REPLACE FUNCTION "app"."idem_release"`,
		`pg_advisory_xact_lock(`,
	} {
		assert.Contains(t, sql, want)
	}
	assert.Equal(t, sql, pgstore.MigrationSQL("app", "idem"), "deterministic")
	assert.NotEqual(t, sql, pgstore.MigrationSQL("app", "idem2"))
}

// TestMigrate: the migration is idempotent, runs from several replicas at
// once, works with names that need quoting (quotes, a dollar-quote tag,
// spaces), and two tables in one schema keep their keys and tokens apart.
func TestMigrate(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 8, nil)
	_, err := pool.Exec(t.Context(), `CREATE SCHEMA "odd ""schema"""`)
	require.NoError(t, err)

	tables := []struct{ schema, table string }{
		{"public", "idem_a"},
		{"public", "idem_b"},
		{`odd "schema"`, `we'ird $fn$ "t"`},
	}
	stores := make([]*pgstore.Store, len(tables))
	for i, tb := range tables {
		stores[i] = pgstore.New(pool, pgstore.WithSchema(tb.schema), pgstore.WithTable(tb.table))
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for j := range errs {
			wg.Go(func() { errs[j] = stores[i].Migrate(t.Context()) })
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err, "concurrent migrations of %s.%s", tb.schema, tb.table)
		}
		require.NoError(t, stores[i].Migrate(t.Context()), "again")
	}

	ctx := t.Context()
	for i, s := range stores {
		c, err := s.Claim(ctx, "shared-key", "fp-"+tables[i].table, time.Minute)
		require.NoError(t, err)
		require.True(t, c.Claimed, "the key is free in table %d", i)
		require.NoError(t, s.Complete(ctx, "shared-key", c.Token, idempotency.Response{Status: 200 + i}, time.Hour))
	}
	for i, s := range stores {
		rec, ok, err := s.Get(ctx, "shared-key")
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, "fp-"+tables[i].table, rec.Fingerprint)
		assert.Equal(t, 200+i, rec.Response.Status)
	}

	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pg_proc WHERE proname LIKE '%\_claim'`).Scan(&n))
	assert.Equal(t, len(tables), n, "one claim function per table")
}

// TestClaimTokensGrow: tokens come from a sequence, so they grow for a key
// across releases and expiry, and across keys.
func TestClaimTokensGrow(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 4, nil)
	s := newStore(t, pool, pgstore.WithInFlightGrace(0))
	ctx := context.Background()
	var last uint64
	for i := range 5 {
		key := "k"
		if i%2 == 1 {
			key = "other-" + strings.Repeat("x", i)
		}
		// The first claim is released, so its lease must outlast a loaded
		// machine's round trips; the others expire while the test sleeps.
		lease := 10 * time.Millisecond
		if i == 0 {
			lease = time.Minute
		}
		c, err := s.Claim(ctx, key, "fp", lease)
		require.NoError(t, err)
		require.True(t, c.Claimed)
		assert.Greater(t, c.Token, last)
		last = c.Token
		if i == 0 {
			require.NoError(t, s.Release(ctx, key, c.Token))
		} else {
			time.Sleep(20 * time.Millisecond) // lease (and, with no grace, the record) expires
		}
	}
}
