package pgstore_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// BenchmarkClaimLargeTable claims a new key per iteration in a table that
// holds no other row, and in one that holds a million expired rows no
// sweep has deleted yet (and a million claims of its own, by the end): a
// claim is a primary-key lookup and an insert, so its cost must not grow
// with the table.
func BenchmarkClaimLargeTable(b *testing.B) {
	pool := newPool(b, pgserver.Start(b), 4, nil)
	for _, rows := range []int{0, 1_000_000} {
		table := uniqueTable()
		store := pgstore.New(pool, pgstore.WithTable(table))
		if err := store.Migrate(b.Context()); err != nil {
			b.Fatal(err)
		}
		if rows > 0 {
			fillExpired(b, pool, table, rows)
		}
		n := 0 // keys stay new across the runs of -count
		b.Run("expired_rows="+strconv.Itoa(rows), func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				n++
				c, err := store.Claim(ctx, "new-"+strconv.Itoa(n), "fp", time.Minute)
				if err != nil || !c.Claimed {
					b.Fatalf("claim %d: %+v, %v", n, c, err)
				}
			}
		})
	}
}
