package mysqlerr_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/mysqlerr"
)

// table is the mapper's code table, as a classifier registers it.
func table(t *testing.T) map[string]string {
	t.Helper()
	vt, ok := mysqlerr.Mapper().(classify.VendorTabler)
	require.True(t, ok, "the mapper registers its table")
	tables := vt.VendorTables()
	require.Len(t, tables, 1)
	require.NotEmpty(t, tables[mysqlerr.Vendor])
	return tables[mysqlerr.Vendor]
}

// TestTableNamesRegisteredCodes: every row names a code of the default
// registry (a row that did not would not be registered, and its errors
// would fall back), and every key is an error number or the driver's
// invalid connection.
func TestTableNamesRegisteredCodes(t *testing.T) {
	for number, code := range table(t) {
		_, ok := toolerr.Default().Lookup(code)
		assert.True(t, ok, "%s maps to unregistered %s", number, code)
		if number == "invalid_connection" {
			continue
		}
		n, err := strconv.ParseUint(number, 10, 16)
		assert.NoError(t, err, "%s is not an error number", number)
		assert.Equal(t, number, strconv.FormatUint(n, 10), "as the mapper spells %s", number)
	}
}

// TestEveryRowThroughAClassifier: a classifier given the mapper decides
// each number by its row, retryable as its code says, except numbers
// whose statement may have run, which a POST does not retry.
func TestEveryRowThroughAClassifier(t *testing.T) {
	c := classify.New(nil, classify.WithErrorMappers(mysqlerr.Mapper()))
	ctx := context.Background()
	for number, code := range table(t) {
		var err error = mysql.ErrInvalidConn
		if n, perr := strconv.ParseUint(number, 10, 16); perr == nil {
			err = &mysql.MySQLError{Number: uint16(n), Message: "Duplicate entry 'secret' for key 'login'"}
		}
		o, ok := mysqlerr.Mapper().MapError(err)
		require.True(t, ok, number)
		assert.Empty(t, o.Message, "%s: the server's message is not used", number)

		get, ok := c.HandlerError(ctx, fmt.Errorf("save order: %w", err), http.MethodGet, false)
		require.True(t, ok, number)
		assert.Equal(t, code, get.Code, number)
		require.NotNil(t, get.Upstream, number)
		assert.Equal(t, mysqlerr.Vendor, get.Upstream.Vendor, number)
		assert.Equal(t, number, get.Upstream.Code)
		assert.NotContains(t, get.Detail, "secret", number)
		_, codeRetryable, _ := toolerr.Default().Kind(code)
		assert.Equal(t, codeRetryable, get.Retryable, "%s: a GET retries what its code retries", number)

		post, _ := c.HandlerError(ctx, err, http.MethodPost, false)
		assert.Equal(t, codeRetryable && !o.UnknownOutcome, post.Retryable, "%s on a POST", number)
		keyed, _ := c.HandlerError(ctx, err, http.MethodPost, true)
		assert.Equal(t, codeRetryable, keyed.Retryable, "%s on a POST with an idempotency key", number)
	}
}

// TestOutcomes pins the outcomes the agent's retry depends on.
func TestOutcomes(t *testing.T) {
	m := mysqlerr.Mapper()
	for _, tc := range []struct {
		err     error
		code    string
		unknown bool
	}{
		{&mysql.MySQLError{Number: 1213}, "1213", false}, // deadlock: rolled back
		{&mysql.MySQLError{Number: 1040}, "1040", false}, // refused at connect
		{&mysql.MySQLError{Number: 3024}, "3024", false}, // a SELECT, nothing written
		{&mysql.MySQLError{Number: 1205}, "1205", true},  // the transaction stays open
		{&mysql.MySQLError{Number: 1969}, "1969", true},
		{&mysql.MySQLError{Number: 1317}, "1317", true},
		{&mysql.MySQLError{Number: 2013}, "2013", true},
		{mysql.ErrInvalidConn, "invalid_connection", true},
	} {
		o, ok := m.MapError(fmt.Errorf("wrapped: %w", tc.err))
		require.True(t, ok, tc.code)
		assert.Equal(t, classify.Outcome{Vendor: mysqlerr.Vendor, VendorCode: tc.code, UnknownOutcome: tc.unknown}, o, tc.code)
	}
}

// TestWrappedAndJoined: the error is found however the handler wrapped it.
func TestWrappedAndJoined(t *testing.T) {
	dup := &mysql.MySQLError{Number: 1062, SQLState: [5]byte{'2', '3', '0', '0', '0'}, Message: "Duplicate entry"}
	for _, err := range []error{
		dup,
		fmt.Errorf("save order: %w", fmt.Errorf("tx: %w", dup)),
		errors.Join(errors.New("rollback failed"), fmt.Errorf("insert: %w", dup)),
		fmt.Errorf("save order: %w", fmt.Errorf("exec: %w", mysql.ErrInvalidConn)),
	} {
		o, ok := mysqlerr.Mapper().MapError(err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, mysqlerr.Vendor, o.Vendor)
		assert.NotEmpty(t, o.VendorCode)
	}
}

// TestNotMySQL: other errors are not the mapper's; driver.ErrBadConn is
// left to classify.SQLMapper, which every classifier tries: nothing ran,
// so even a POST may be retried.
func TestNotMySQL(t *testing.T) {
	for _, err := range []error{
		errors.New("plain"),
		driver.ErrBadConn,
		fmt.Errorf("save order: %w", (*mysql.MySQLError)(nil)),
		mysql.ErrMalformPkt,
	} {
		_, ok := mysqlerr.Mapper().MapError(err)
		assert.False(t, ok, "%v", err)
	}
	c := classify.New(nil, classify.WithErrorMappers(mysqlerr.Mapper()))
	e, ok := c.HandlerError(context.Background(), fmt.Errorf("save order: %w", driver.ErrBadConn), http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, classify.VendorSQL, e.Upstream.Vendor)
}

// TestUnmappedNumber: a number without a row keeps its number as
// upstream.code, falls back, and is reported to the observer.
func TestUnmappedNumber(t *testing.T) {
	var seen []classify.Unmapped
	c := classify.New(nil, classify.WithErrorMappers(mysqlerr.Mapper()),
		classify.WithObserver(classify.ObserverFunc(func(_ context.Context, u classify.Unmapped) { seen = append(seen, u) })))
	e, ok := c.HandlerError(context.Background(), &mysql.MySQLError{Number: 1030, Message: "Got error 28 from storage engine"}, http.MethodPost, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, e.Code)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "1030", e.Upstream.Code)
	assert.NotContains(t, e.Detail, "storage engine")
	require.Len(t, seen, 1)
	assert.Equal(t, classify.Unmapped{Vendor: mysqlerr.Vendor, VendorCode: "1030", Code: toolerr.CodeUpstreamUnclassified}, seen[0])
}
