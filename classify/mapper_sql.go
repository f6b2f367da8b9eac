package classify

import (
	"database/sql"
	"database/sql/driver"

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
		code := sqlSentinel(err, 0)
		if code == "" {
			return Outcome{}, false
		}
		return Outcome{Vendor: VendorSQL, VendorCode: code}, true
	})
}

// sqlSentinels are database/sql's sentinel errors with their codes, in
// the order they are tested on each error of a chain.
var sqlSentinels = [...]struct {
	err  error
	code string
}{
	{sql.ErrNoRows, "no_rows"},
	{driver.ErrBadConn, "bad_conn"},
	{sql.ErrConnDone, "conn_done"},
	{sql.ErrTxDone, "tx_done"},
}

// maxSentinelDepth bounds the walk of an error tree, as a chain built by
// a cycle of Unwrap methods would otherwise never end.
const maxSentinelDepth = 64

// sqlSentinel returns the code of the first database/sql sentinel in err's
// tree, in errors.Is's order (depth first; an error's own Is method
// counts), in one walk instead of one errors.Is walk per sentinel.
func sqlSentinel(err error, depth int) string {
	for err != nil && depth < maxSentinelDepth {
		is, hasIs := err.(interface{ Is(error) bool })
		for _, s := range sqlSentinels {
			if err == s.err || (hasIs && is.Is(s.err)) {
				return s.code
			}
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
			depth++
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if code := sqlSentinel(e, depth+1); code != "" {
					return code
				}
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}
