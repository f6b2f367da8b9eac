package pgxtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver of database/sql
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// TestDatabaseSQLOnARealServer: database/sql over pgx on a real PostgreSQL
// produces its sentinel errors and the driver's SQLSTATE errors; each is
// classified as database/sql and PostgreSQL document them.
func TestDatabaseSQLOnARealServer(t *testing.T) {
	db, err := sql.Open("pgx", startPostgres(t))
	require.NoError(t, err)
	defer db.Close()
	ctx := context.Background()
	_, err = db.ExecContext(ctx, `CREATE TABLE orders (id text PRIMARY KEY)`)
	require.NoError(t, err)
	c := classify.New(nil)
	classifyErr := func(err error, method string) *toolerr.Error {
		t.Helper()
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("orders: %w", err), method, false)
		require.True(t, ok, "%v", err)
		return e
	}

	var id string
	e := classifyErr(db.QueryRowContext(ctx, `SELECT id FROM orders WHERE id = $1`, "ord_42").Scan(&id), http.MethodGet)
	assert.Equal(t, toolerr.CodeNotFound, e.Code, "sql.ErrNoRows")
	assert.Equal(t, classify.VendorSQL, e.Upstream.Vendor)

	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
	e = classifyErr(tx.Commit(), http.MethodPost)
	assert.Equal(t, toolerr.CodeInternal, e.Code, "sql.ErrTxDone: the handler's own sequencing")

	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	require.NoError(t, conn.Close())
	e = classifyErr(conn.PingContext(ctx), http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code, "sql.ErrConnDone")
	assert.True(t, e.Retryable, "nothing ran")

	_, err = db.ExecContext(ctx, `INSERT INTO orders VALUES ('ord_1'), ('ord_1')`)
	e = classifyErr(err, http.MethodPost)
	assert.Equal(t, toolerr.CodeConflict, e.Code, "the driver's SQLSTATE through database/sql")
	assert.Equal(t, "23505", e.Upstream.Code)
}
