package pgstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// expiredRows is how many expired rows the sweep test fills the table with.
const expiredRows = 200_000

// fillExpired inserts n expired Completed rows, keys exp-1 … exp-n, into
// table, and analyzes it.
func fillExpired(t testing.TB, pool *pgxpool.Pool, table string, n int) {
	t.Helper()
	_, err := pool.Exec(t.Context(), `INSERT INTO "public"."`+table+`"
		(key, fingerprint, state, token, created_at, expires_at, status, body)
		SELECT convert_to('exp-' || i, 'UTF8'), '\x6670', 2, i, now() - interval '2 hours', now() - interval '1 hour', 200, '\x'
		FROM generate_series(1, $1::int) AS i`, n)
	require.NoError(t, err)
	_, err = pool.Exec(t.Context(), `ANALYZE "public"."`+table+`"`)
	require.NoError(t, err)
}

// TestSweepLargeTable: with 200k expired rows in the table, claims are
// still primary-key lookups and treat an expired key as absent; Sweep
// deletes the expired rows in batches of the configured size and leaves
// live records alone.
func TestSweepLargeTable(t *testing.T) {
	counter := &tripCounter{}
	pool := newPool(t, pgserver.Start(t), 4, func(c *pgxpool.Config) { c.ConnConfig.Tracer = counter })
	table := uniqueTable()
	store := pgstore.New(pool, pgstore.WithTable(table), pgstore.WithSweepBatch(1000), pgstore.WithTimeout(10*time.Second))
	require.NoError(t, store.Migrate(t.Context()))
	fillExpired(t, pool, table, expiredRows)

	live, err := store.Claim(t.Context(), "live", "fp", time.Hour)
	require.NoError(t, err)
	require.True(t, live.Claimed)
	taken, err := store.Claim(t.Context(), "exp-7", "fp-new", time.Hour)
	require.NoError(t, err)
	require.True(t, taken.Claimed, "an expired record is absent: the key is claimed anew")
	rec, ok, err := store.Get(t.Context(), "exp-7")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "fp-new", rec.Fingerprint)
	assert.WithinDuration(t, time.Now(), rec.CreatedAt, time.Minute, "an expired record's creation time is not kept")
	_, ok, err = store.Get(t.Context(), "exp-8")
	require.NoError(t, err)
	assert.False(t, ok, "an expired record not swept yet is absent")

	var plan strings.Builder
	rows, err := pool.Query(t.Context(), `EXPLAIN SELECT state FROM "public"."`+table+`" WHERE key = '\x6578702d38'`)
	require.NoError(t, err)
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		plan.WriteString(line + "\n")
	}
	require.NoError(t, rows.Err())
	assert.Contains(t, plan.String(), "Index Scan using", "a key is a primary-key lookup:\n%s", plan.String())

	counter.take()
	start := time.Now()
	deleted, err := store.Sweep(t.Context())
	elapsed := time.Since(start)
	require.NoError(t, err)
	assert.EqualValues(t, expiredRows-1, deleted, "every expired row but the one claimed anew")
	_, statements := counter.take()
	assert.Len(t, statements, (expiredRows-1)/1000+1, "one statement per batch of 1000, the last one short")
	t.Logf("swept %d rows in %d statements in %v", deleted, len(statements), elapsed)

	var left int
	require.NoError(t, pool.QueryRow(t.Context(), `SELECT count(*) FROM "public"."`+table+`"`).Scan(&left))
	assert.Equal(t, 2, left, "the live records stay")
	require.NoError(t, store.Complete(t.Context(), "live", live.Token, idempotency.Response{Status: 201}, time.Hour))
	deleted, err = store.Sweep(t.Context())
	require.NoError(t, err)
	assert.Zero(t, deleted)
}

// TestRunSweeper: the background sweeper deletes expired rows at its
// interval and returns when its context ends.
func TestRunSweeper(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 2, nil)
	table := uniqueTable()
	store := pgstore.New(pool, pgstore.WithTable(table))
	require.NoError(t, store.Migrate(t.Context()))
	fillExpired(t, pool, table, 2500)

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- store.RunSweeper(ctx, 20*time.Millisecond, func(err error) { t.Errorf("sweep: %v", err) })
	}()
	assert.Eventually(t, func() bool {
		var left int
		err := pool.QueryRow(t.Context(), `SELECT count(*) FROM "public"."`+table+`"`).Scan(&left)
		return err == nil && left == 0
	}, 5*time.Second, 20*time.Millisecond)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("RunSweeper did not return after its context ended")
	}
}
