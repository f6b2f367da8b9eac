package classify_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// A minimal database/sql driver, so that database/sql itself produces its
// errors (ErrNoRows from Scan, ErrBadConn after its own retries): the
// query "none" returns no rows, "bad" finds every connection broken.
type (
	testDriver struct{}
	testConn   struct{}
	testStmt   struct{ query string }
	noRows     struct{}
)

func (testDriver) Open(string) (driver.Conn, error)           { return testConn{}, nil }
func (testConn) Prepare(q string) (driver.Stmt, error)        { return testStmt{q}, nil }
func (testConn) Close() error                                 { return nil }
func (testConn) Begin() (driver.Tx, error)                    { return nil, errors.New("no transactions") }
func (s testStmt) Close() error                               { return nil }
func (s testStmt) NumInput() int                              { return 0 }
func (s testStmt) Exec([]driver.Value) (driver.Result, error) { return nil, errors.New("no exec") }
func (s testStmt) Query([]driver.Value) (driver.Rows, error) {
	if s.query == "bad" {
		return nil, driver.ErrBadConn
	}
	return noRows{}, nil
}
func (noRows) Columns() []string         { return []string{"id"} }
func (noRows) Close() error              { return nil }
func (noRows) Next([]driver.Value) error { return io.EOF }

var registerDriver sync.Once

func openTestDB(t *testing.T) *sql.DB {
	t.Helper()
	registerDriver.Do(func() { sql.Register("toolerr-classify-test", testDriver{}) })
	db, err := sql.Open("toolerr-classify-test", "")
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestSQLErrorsFromDatabaseSQL(t *testing.T) {
	db := openTestDB(t)
	c := classify.New(nil)
	ctx := context.Background()

	var id string
	err := db.QueryRowContext(ctx, "none").Scan(&id)
	require.ErrorIs(t, err, sql.ErrNoRows)
	e, ok := c.HandlerError(ctx, fmt.Errorf("load order ord_42: %w", err), http.MethodGet, false)
	require.True(t, ok, "a wrapped sql.ErrNoRows is known")
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, classify.VendorSQL, e.Upstream.Vendor)
	assert.Equal(t, "no_rows", e.Upstream.Code)

	_, err = db.QueryContext(ctx, "bad")
	require.ErrorIs(t, err, driver.ErrBadConn, "database/sql gave up after its own retries")
	e, ok = c.HandlerError(ctx, err, http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable, "a bad connection ran nothing: safe to retry, even a POST")

	require.NoError(t, db.Close())
	_, err = db.QueryContext(ctx, "none")
	require.Error(t, err)
	_, ok = c.HandlerError(ctx, err, http.MethodGet, false)
	assert.False(t, ok, "a closed *sql.DB is the handler's own bug: no mapper claims it")
}

// acmeError stands for an SDK's typed error with methods, as smithy's
// APIError or pgconn's PgError have them.
type acmeError struct{ code, msg string }

func (e *acmeError) Error() string     { return e.code + ": " + e.msg }
func (e *acmeError) ErrorCode() string { return e.code }

func TestErrorMappersExtendTheClassifier(t *testing.T) {
	acme := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		var ae *acmeError
		if !errors.As(err, &ae) {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "acme", VendorCode: ae.ErrorCode(), Message: ae.msg}, true
	})
	noRowsIsGone := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		if !errors.Is(err, sql.ErrNoRows) {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "orders-db", VendorCode: "gone"}, true
	})
	c := classify.New(nil, classify.WithErrorMappers(acme, nil, noRowsIsGone))
	require.NoError(t, c.RegisterVendor("acme", map[string]string{"QuotaExceeded": toolerr.CodeQuotaExhausted}))
	require.NoError(t, c.RegisterVendor("orders-db", map[string]string{"gone": toolerr.CodeGone}))
	ctx := context.Background()

	e, ok := c.HandlerError(ctx, fmt.Errorf("sync: %w", &acmeError{"QuotaExceeded", "monthly quota of 1000 calls used"}), http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeQuotaExhausted, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "monthly quota of 1000 calls used", e.Detail, "the vendor's message, through the message filter")
	assert.Equal(t, "acme", e.Upstream.Vendor)

	e, ok = c.GoError(ctx, &acmeError{"Weird", "?"}, http.MethodGet, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, e.Code, "an unknown vendor code falls back, with the vendor named")

	e, ok = c.HandlerError(ctx, sql.ErrNoRows, http.MethodGet, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeGone, e.Code, "the service's own mappers are tried before the built-in ones")

	_, ok = c.HandlerError(ctx, errors.New("plain"), http.MethodGet, false)
	assert.False(t, ok, "an error no mapper knows stays unknown")
}
