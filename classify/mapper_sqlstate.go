package classify

import (
	"errors"
	"reflect"

	"github.com/toolerr/toolerr"
)

// VendorPostgres is the vendor name under which [SQLStateMapper] reports
// database errors that carry a SQLSTATE.
const VendorPostgres = "postgres"

// sqlState is the method by which a driver error gives its SQLSTATE:
// pgx's *pgconn.PgError has it, so no driver is imported here.
type sqlState interface {
	error
	SQLState() string
}

// sqlStateTable maps SQLSTATE codes, and whole classes as "22XXX", to
// toolerr codes. Each row follows PostgreSQL's "Appendix A. PostgreSQL
// Error Codes" and its manual on concurrency control.
var sqlStateTable = map[string]string{
	// 23505 unique_violation: the row the call tried to create exists.
	"23505": toolerr.CodeConflict,
	// 23503 foreign_key_violation: the row refers to one that does not
	// exist (or is still referenced): the system's state, not the value's
	// shape, is what the call must check first.
	"23503": toolerr.CodePreconditionFailed,
	// 23502 not_null_violation: a required value was not given.
	"23502": toolerr.CodeValidationFailed,
	// 23514 check_violation: a value breaks the column's rule.
	"23514": toolerr.CodeValidationFailed,
	// 23P01 exclusion_violation: overlaps an existing row (a booking).
	"23P01": toolerr.CodeConflict,
	// Class 22, data exception: a value of the wrong shape or range.
	"22XXX": toolerr.CodeValidationFailed,
	// 40001 serialization_failure, 40P01 deadlock_detected: the
	// transaction was rolled back; "applications using this level must be
	// prepared to retry transactions due to serialization failures"
	// (manual, 13.2.3): retrying the whole call is safe.
	"40001": toolerr.CodeUpstreamUnavailable,
	"40P01": toolerr.CodeUpstreamUnavailable,
	// 53300 too_many_connections and class 53 (insufficient resources),
	// 57P03 cannot_connect_now (starting up): nothing ran; try later.
	"53XXX": toolerr.CodeUpstreamUnavailable,
	"57P03": toolerr.CodeUpstreamUnavailable,
	// 57014 query_canceled: statement_timeout or a cancel request; the
	// statement did not take effect.
	"57014": toolerr.CodeUpstreamTimeout,
	// 57P01 admin_shutdown, 57P02 crash_shutdown: the server went away.
	"57P01": toolerr.CodeUpstreamUnavailable,
	"57P02": toolerr.CodeUpstreamUnavailable,
	// Class 08, connection exception: the connection failed.
	"08XXX": toolerr.CodeUpstreamUnavailable,
	// Class 28, invalid authorization: the service's credentials.
	"28XXX": toolerr.CodeUpstreamMisconfigured,
	// Class 42, syntax error or access rule violation (an undefined
	// table, a bad query): the service's own query is wrong.
	"42XXX": toolerr.CodeInternal,
	// 42501 insufficient_privilege: the service's role may not do this.
	"42501": toolerr.CodeUpstreamMisconfigured,
	// Class 25, invalid transaction state: the handler's sequencing.
	"25XXX": toolerr.CodeInternal,
	// 55P03 lock_not_available (NOWAIT, lock_timeout): the statement
	// could not take a lock another transaction holds, so it did nothing;
	// the holder finishes, and a retry takes the lock: retryable, as a
	// serialization failure is.
	"55P03": toolerr.CodeUpstreamUnavailable,
	// Class 55, object not in prerequisite state (55006 object_in_use,
	// 55000): the system's state must change before the call can pass.
	"55XXX": toolerr.CodePreconditionFailed,
}

// unknownOutcomeStates may have taken effect although the call failed:
// a connection that broke mid-call (class 08 but for the two failures to
// connect, 08001 and 08004).
func unknownOutcomeState(code string) bool {
	return len(code) == 5 && code[:2] == "08" && code != "08001" && code != "08004"
}

// SQLStateMapper returns the mapper of database errors that carry a
// SQLSTATE (a SQLState() string method, as pgx's *pgconn.PgError has): a
// unique violation is CONFLICT, a foreign-key violation
// PRECONDITION_FAILED, not-null, check and data exceptions
// VALIDATION_FAILED, serialization failures and deadlocks retryable
// (the transaction rolled back), too many connections and a server
// starting up UPSTREAM_UNAVAILABLE, a cancelled statement UPSTREAM_TIMEOUT,
// the service's own bad query INTERNAL_ERROR, a lock not available
// (55P03) retryable UPSTREAM_UNAVAILABLE and the rest of class 55
// PRECONDITION_FAILED. The column the server names (pgx's ColumnName, of a
// not-null violation) is the field. The server's message is not
// used: it can hold the values of the statement (a key that already
// exists, text that did not parse), so the detail is the code's title and
// the SQLSTATE is upstream.code. Every classifier tries it.
func SQLStateMapper() ErrorMapper {
	return MapperFunc(func(err error) (Outcome, bool) {
		// errors.AsType asserts along the chain; errors.As would check
		// each link against the interface by reflection, several times
		// slower.
		s, ok := errors.AsType[sqlState](err)
		if !ok {
			return Outcome{}, false
		}
		code := s.SQLState()
		if len(code) != 5 {
			return Outcome{}, false
		}
		// The table's class rows ("22XXX") cover the codes without a row.
		return Outcome{Vendor: VendorPostgres, VendorCode: code, UnknownOutcome: unknownOutcomeState(code),
			Field: sqlColumn(s)}, true
	})
}

// sqlColumn returns the column a driver error names, or "": pgx's
// *pgconn.PgError has it as the string field ColumnName (set for a
// not-null violation), read by reflection so that no driver is imported.
// It runs on failures only.
func sqlColumn(err sqlState) string {
	v := reflect.ValueOf(err)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	f := v.FieldByName("ColumnName")
	if !f.IsValid() || f.Kind() != reflect.String {
		return ""
	}
	return f.String()
}
