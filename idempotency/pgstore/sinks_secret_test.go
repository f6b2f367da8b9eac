package pgstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/idempotency/storetest/leaktest"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// TestPostgresHoldsNoSecretOfAFailure: a tool that fails with secrets,
// behind middleware.New and the idempotency middleware, leaves none in any
// column of any row the store wrote.
func TestPostgresHoldsNoSecretOfAFailure(t *testing.T) {
	pool := newPool(t, pgserver.Start(t), 4, nil)
	table := uniqueTable()
	store := pgstore.New(pool, pgstore.WithTable(table))
	require.NoError(t, store.Migrate(context.Background()))
	leaktest.NoSecretStored(t, store, func(t *testing.T) string {
		rows, err := pool.Query(context.Background(), `SELECT encode(key, 'escape'), encode(fingerprint, 'escape'),
			coalesce(header, ''), encode(coalesce(body, ''::bytea), 'escape') FROM `+pgx.Identifier{table}.Sanitize())
		require.NoError(t, err)
		defer rows.Close()
		var all strings.Builder
		for rows.Next() {
			var key, fp, header, body string
			require.NoError(t, rows.Scan(&key, &fp, &header, &body))
			all.WriteString(strings.Join([]string{key, fp, header, body}, " ") + "\n")
		}
		require.NoError(t, rows.Err())
		return all.String()
	})
}
