package pgxtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/retrygate"
)

// TestDoRetriesASerializationFailure: a transfer in a REPEATABLE READ
// transaction loses a race with a concurrent update and gets SQLSTATE
// 40001 from a real PostgreSQL. The transaction rolled back, so
// retrygate.Do, given the plain pgx error and no idempotency, runs the
// whole transaction again, once, and the balance reflects both updates.
// A unique violation in the same place is not retried.
func TestDoRetriesASerializationFailure(t *testing.T) {
	dsn := startPostgres(t)
	ctx := context.Background()
	a, b := connect(t, dsn), connect(t, dsn)
	_, err := a.Exec(ctx, `CREATE TABLE wallets (id int PRIMARY KEY, balance int NOT NULL);
		CREATE TABLE receipts (id text PRIMARY KEY);
		INSERT INTO wallets VALUES (1, 100);`)
	require.NoError(t, err)

	p := retrygate.DefaultPolicy()
	p.InitialInterval = time.Millisecond
	attempts := 0
	transfer := func(ctx context.Context) error {
		attempts++
		tx, err := a.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		var balance int
		if err := tx.QueryRow(ctx, `SELECT balance FROM wallets WHERE id = 1`).Scan(&balance); err != nil {
			return err
		}
		if attempts == 1 {
			// Another replica moves money between this read and the write.
			_, err := b.Exec(ctx, `UPDATE wallets SET balance = balance + 50 WHERE id = 1`)
			require.NoError(t, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE wallets SET balance = $1 WHERE id = 1`, balance-30); err != nil {
			return fmt.Errorf("debit wallet: %w", err)
		}
		return tx.Commit(ctx)
	}
	require.NoError(t, retrygate.Do(ctx, p, transfer))
	assert.Equal(t, 2, attempts, "one retry after the serialization failure")
	var balance int
	require.NoError(t, a.QueryRow(ctx, `SELECT balance FROM wallets WHERE id = 1`).Scan(&balance))
	assert.Equal(t, 120, balance, "100 + 50 - 30: neither update lost, none applied twice")

	// A unique violation is the caller's to fix: one attempt.
	_, err = a.Exec(ctx, `INSERT INTO receipts VALUES ('r1')`)
	require.NoError(t, err)
	attempts = 0
	err = retrygate.Do(ctx, p, func(ctx context.Context) error {
		attempts++
		_, err := a.Exec(ctx, `INSERT INTO receipts VALUES ('r1')`)
		return err
	})
	require.Error(t, err)
	assert.Equal(t, 1, attempts)
	_, isPg := errors.AsType[*pgconn.PgError](err)
	_, classified := toolerr.From(err)
	assert.True(t, isPg && !classified, "Do returns the driver's error as it was")
}
