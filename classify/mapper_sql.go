package classify

import (
	"database/sql"
	"database/sql/driver"
	"errors"

	"github.com/toolerr/toolerr"
)

// VendorSQL is the vendor name under which [SQLMapper] reports the
// sentinel errors of database/sql.
const VendorSQL = "database/sql"

// sqlTable maps the sentinel errors of database/sql, by the code
// [SQLMapper] gives them, to toolerr codes.
var sqlTable = map[string]string{
	// database/sql: "ErrNoRows is returned by Scan when QueryRow doesn't
	// return a row": the row the call looked for does not exist.
	"no_rows": toolerr.CodeNotFound,
	// driver.ErrBadConn: the connection is in a bad state, and a driver
	// must not return it when the server may have performed the operation
	// (database/sql/driver docs); database/sql retries it on another
	// connection, so one that reaches the handler means the pool kept
	// failing: nothing ran, and a later call may work.
	"bad_conn": toolerr.CodeUpstreamUnavailable,
	// sql.ErrConnDone: the operation was tried on a connection already
	// returned to the pool: it did not run; a new connection may work.
	"conn_done": toolerr.CodeUpstreamUnavailable,
	// sql.ErrTxDone: the transaction was already committed or rolled back:
	// the handler's own sequencing, not the database's state.
	"tx_done": toolerr.CodeInternal,
}

// SQLMapper returns the mapper of database/sql's sentinel errors:
// sql.ErrNoRows is NOT_FOUND; driver.ErrBadConn and sql.ErrConnDone are
// UPSTREAM_UNAVAILABLE, retryable for any call (neither is returned when
// the statement may have run); sql.ErrTxDone is the handler's own bug,
// INTERNAL_ERROR. Every classifier tries it after its
// own mappers. Driver errors (SQLSTATE, MySQL numbers) are other mappers'.
func SQLMapper() ErrorMapper {
	return MapperFunc(func(err error) (Outcome, bool) {
		code := ""
		switch {
		case errors.Is(err, sql.ErrNoRows):
			code = "no_rows"
		case errors.Is(err, driver.ErrBadConn):
			code = "bad_conn"
		case errors.Is(err, sql.ErrConnDone):
			code = "conn_done"
		case errors.Is(err, sql.ErrTxDone):
			code = "tx_done"
		default:
			return Outcome{}, false
		}
		return Outcome{Vendor: VendorSQL, VendorCode: code}, true
	})
}
