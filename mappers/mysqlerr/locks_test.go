package mysqlerr_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// marked reports whether the marks table holds name: whether a
// transaction's first statement survived what happened to its later one.
func marked(t *testing.T, s *server, name string) bool {
	t.Helper()
	var n int
	require.NoError(t, s.root.QueryRow(`SELECT COUNT(*) FROM marks WHERE name = ?`, name).Scan(&n))
	return n > 0
}

// threadOf returns the server connection id under tx.
func threadOf(ctx context.Context, tx *sql.Tx) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT CONNECTION_ID()`).Scan(&id)
	return id, err
}

// lockWaitQuery counts the transactions of a connection that wait for a
// row lock.
const lockWaitQuery = `SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = ? AND trx_state = 'LOCK WAIT'`

// deadlock runs two transactions that each mark a row of their own, lock
// one order, then want the other's: InnoDB picks one as the victim. The
// victim then commits, as a careless handler would: what InnoDB rolled
// back stays rolled back. It returns the victim's mark and error.
func deadlock(ctx context.Context, s *server) (string, error) {
	var txs [2]*sql.Tx
	for i := range txs {
		tx, err := s.root.BeginTx(ctx, nil)
		if err != nil {
			return "", fmt.Errorf("setup: %w", err)
		}
		defer tx.Rollback()
		txs[i] = tx
		if _, err := tx.ExecContext(ctx, `INSERT INTO marks VALUES (?)`, fmt.Sprint("deadlock-", i)); err != nil {
			return "", fmt.Errorf("setup: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET qty = qty + 1 WHERE id = ?`, i+1); err != nil {
			return "", fmt.Errorf("setup: %w", err)
		}
	}
	first, err := threadOf(ctx, txs[0])
	if err != nil {
		return "", fmt.Errorf("setup: %w", err)
	}
	crossed := make(chan error, 1)
	go func() {
		_, err := txs[0].ExecContext(ctx, `UPDATE orders SET qty = qty + 1 WHERE id = 2`)
		crossed <- err
	}()
	if err := s.waitUntil(ctx, lockWaitQuery, first); err != nil {
		return "", fmt.Errorf("setup: %w", err)
	}
	_, err1 := txs[1].ExecContext(ctx, `UPDATE orders SET qty = qty + 1 WHERE id = 1`)
	err0 := <-crossed
	victim := 0
	switch {
	case err0 != nil && err1 == nil:
	case err1 != nil && err0 == nil:
		victim = 1
	default:
		return "", fmt.Errorf("setup: want one victim, got %v and %v", err0, err1)
	}
	if err := txs[victim].Commit(); err != nil {
		return "", fmt.Errorf("setup: %w", err)
	}
	return fmt.Sprint("deadlock-", victim), errors.Join(err0, err1)
}

// lockWait marks a row in a transaction, then updates an order another
// transaction holds, until innodb_lock_wait_timeout (1s) runs out; the
// transaction then commits. It returns the update's error.
func lockWait(ctx context.Context, s *server, mark string) error {
	holder, err := s.root.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	defer holder.Rollback()
	if _, err := holder.ExecContext(ctx, `UPDATE orders SET qty = qty + 1 WHERE id = 1`); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	waiter, err := s.root.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	defer waiter.Rollback()
	if _, err := waiter.ExecContext(ctx, `INSERT INTO marks VALUES (?)`, mark); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	_, waitErr := waiter.ExecContext(ctx, `UPDATE orders SET qty = qty + 1 WHERE id = 1`)
	if err := waiter.Commit(); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	return waitErr
}

// TestLocksFromARealServer: a deadlock, a lock wait timeout and a full
// server, each met in a tool handler on a real MariaDB.
func TestLocksFromARealServer(t *testing.T) {
	t.Parallel() // each test has a server of its own
	s := startMariaDB(t)
	s.exec(t, schema...)
	s.exec(t, `CREATE TABLE marks (name VARCHAR(32) PRIMARY KEY) ENGINE=InnoDB`)

	t.Run("deadlock", func(t *testing.T) {
		var victimMark string
		a := call(t, http.MethodPost, func(ctx context.Context) error {
			mark, err := deadlock(ctx, s)
			victimMark = mark
			return err
		})
		require.Equal(t, uint16(1213), number(a.raw), "%v", a.raw)
		expect(t, a, toolerr.CodeUpstreamUnavailable, true, "1213")
		assert.False(t, marked(t, s, victimMark),
			"InnoDB rolled back the victim's whole transaction: a retry of the whole call, even a POST, is safe")
	})

	t.Run("lock wait timeout", func(t *testing.T) {
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			mark := "waited-" + method
			a := call(t, method, func(ctx context.Context) error { return lockWait(ctx, s, mark) })
			require.Equal(t, uint16(1205), number(a.raw), "%v", a.raw)
			expect(t, a, toolerr.CodeUpstreamTimeout, method == http.MethodGet, "1205")
			assert.True(t, marked(t, s, mark),
				"only the waiting statement was rolled back: the transaction's earlier one could still commit, so a POST is not retried")
		}
	})

	t.Run("too many connections", func(t *testing.T) {
		// An account without SUPER: MariaDB keeps one connection beyond
		// max_connections for SUPER accounts such as root.
		s.exec(t, `CREATE USER 'clerk'@'127.0.0.1' IDENTIFIED BY 'c1erk'`,
			`GRANT SELECT, INSERT ON shop.* TO 'clerk'@'127.0.0.1'`)
		clerk := s.open(t, "clerk", "c1erk", "shop")
		var held []*sql.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		a := call(t, http.MethodPost, func(ctx context.Context) error {
			for range maxConnections + 1 {
				c, err := clerk.Conn(ctx)
				if err != nil {
					return err
				}
				held = append(held, c)
			}
			return errors.New("setup: every connection was accepted")
		})
		require.Equal(t, uint16(1040), number(a.raw), "%v", a.raw)
		expect(t, a, toolerr.CodeUpstreamUnavailable, true, "1040")
	})
}
