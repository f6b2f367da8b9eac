package pgxtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
)

// TestSQLStatesFromARealServer drives pgx against a real PostgreSQL and
// classifies what it returns, wrapped as a handler returns it.
func TestSQLStatesFromARealServer(t *testing.T) {
	dsn := startPostgres(t)
	ctx := context.Background()
	conn := connect(t, dsn)
	_, err := conn.Exec(ctx, `
		CREATE TABLE accounts (id int PRIMARY KEY, email text UNIQUE NOT NULL, balance int CHECK (balance >= 0));
		CREATE TABLE transfers (id int PRIMARY KEY, account int NOT NULL REFERENCES accounts(id));
		INSERT INTO accounts VALUES (1, 'maria@example.com', 100);`)
	require.NoError(t, err)

	c := classify.New(nil)
	classifyErr := func(err error, method string) *toolerr.Error {
		t.Helper()
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("transfer: %w", err), method, false)
		require.True(t, ok, "%v", err)
		require.NotNil(t, e.Upstream)
		assert.Equal(t, classify.VendorPostgres, e.Upstream.Vendor)
		return e
	}
	exec := func(sql string, args ...any) error {
		_, err := conn.Exec(ctx, sql, args...)
		return err
	}

	e := classifyErr(exec(`INSERT INTO accounts VALUES (2, $1, 5)`, "maria@example.com"), http.MethodPost)
	assert.Equal(t, toolerr.CodeConflict, e.Code)
	assert.Equal(t, "23505", e.Upstream.Code)
	assert.NotContains(t, e.Detail, "maria@example.com", "the key's value, a bind parameter, never reaches detail")

	e = classifyErr(exec(`INSERT INTO transfers VALUES (1, 42)`), http.MethodPost)
	assert.Equal(t, toolerr.CodePreconditionFailed, e.Code)

	e = classifyErr(exec(`INSERT INTO accounts (id, balance) VALUES (3, 1)`), http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code, "23502 not null")
	assert.Equal(t, "email", e.Field, "the column the server names")

	// 55P03 lock_not_available: another transaction holds the row's lock
	// and this statement would not wait (NOWAIT): nothing ran, retryable.
	holder := connect(t, dsn)
	htx, err := holder.Begin(ctx)
	require.NoError(t, err)
	_, err = htx.Exec(ctx, `SELECT * FROM accounts WHERE id = 1 FOR UPDATE`)
	require.NoError(t, err)
	e = classifyErr(exec(`SELECT * FROM accounts WHERE id = 1 FOR UPDATE NOWAIT`), http.MethodPost)
	assert.Equal(t, "55P03", e.Upstream.Code)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code, "a lock not available")
	assert.True(t, e.Retryable, "the statement did nothing: retrying the call is safe, even a POST")
	require.NoError(t, htx.Rollback(ctx))

	// 55006 object_in_use: a database another session is connected to
	// cannot be dropped.
	require.NoError(t, exec(`CREATE DATABASE busy`))
	busy := connect(t, strings.Replace(dsn, "/postgres?", "/busy?", 1))
	e = classifyErr(exec(`DROP DATABASE busy`), http.MethodPost)
	assert.Equal(t, "55006", e.Upstream.Code)
	assert.Equal(t, toolerr.CodePreconditionFailed, e.Code, "class 55: the state must change first")
	require.NoError(t, busy.Close(ctx))

	e = classifyErr(exec(`UPDATE accounts SET balance = -5 WHERE id = 1`), http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code, "23514 check")

	e = classifyErr(exec(`SELECT $1::int`, "seventeen"), http.MethodGet)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code, "22P02, a data exception")
	assert.Equal(t, "22P02", e.Upstream.Code)
	assert.NotContains(t, e.Detail, "seventeen")

	e = classifyErr(exec(`SELECT * FROM no_such_table`), http.MethodGet)
	assert.Equal(t, toolerr.CodeInternal, e.Code, "42P01: the service's own query")

	e = classifyErr(exec(`SET statement_timeout = 50; SELECT pg_sleep(2)`), http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamTimeout, e.Code, "57014")
	assert.True(t, e.Retryable, "the cancelled statement did not take effect")
	require.NoError(t, exec(`SET statement_timeout = 0`))

	// A serialization failure: a repeatable-read transaction updates a row
	// another transaction changed after its snapshot.
	other := connect(t, dsn)
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead})
	require.NoError(t, err)
	var balance int
	require.NoError(t, tx.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = 1`).Scan(&balance))
	_, err = other.Exec(ctx, `UPDATE accounts SET balance = balance + 1 WHERE id = 1`)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `UPDATE accounts SET balance = $1 WHERE id = 1`, balance-10)
	e = classifyErr(err, http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code, "40001")
	assert.Equal(t, "40001", e.Upstream.Code)
	assert.True(t, e.Retryable, "the transaction rolled back: retrying the call is safe, even a POST")
	_ = tx.Rollback(ctx)

	// A refused connection is a network error, not a SQLSTATE: the Go
	// network rules classify it.
	bad := "postgres://postgres@" + refusedAddr(t) + "/postgres?sslmode=disable"
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err = pgx.Connect(cctx, bad)
	require.Error(t, err)
	e, ok := c.HandlerError(ctx, err, http.MethodPost, false)
	require.True(t, ok, "%v", err)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable, "a refused connection sent nothing")
}

// TestSQLStateThroughTheMiddleware: a tool returns pgx's error as it got
// it; the agent gets CONFLICT, not INTERNAL_ERROR.
func TestSQLStateThroughTheMiddleware(t *testing.T) {
	conn := connect(t, startPostgres(t))
	ctx := context.Background()
	_, err := conn.Exec(ctx, `CREATE TABLE users (email text PRIMARY KEY); INSERT INTO users VALUES ('ada@example.com')`)
	require.NoError(t, err)

	h := middleware.New()(middleware.Tool("create_user", func(w http.ResponseWriter, r *http.Request) error {
		_, err := conn.Exec(r.Context(), `INSERT INTO users VALUES ($1)`, "ada@example.com")
		return err
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/create_user", strings.NewReader("{}")))
	assert.Equal(t, http.StatusConflict, rec.Code)
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeConflict, e.Code)
	assert.NotContains(t, rec.Body.String(), "ada@example.com")
}
