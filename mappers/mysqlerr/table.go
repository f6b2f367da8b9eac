package mysqlerr

import "github.com/toolerr/toolerr"

// Vendor is the vendor name of MySQL and MariaDB outcomes: upstream.vendor
// of their errors, and the name of their code table.
const Vendor = "mysql"

// invalidConn is the vendor code of the driver's mysql.ErrInvalidConn,
// which carries no server error number.
const invalidConn = "invalid_connection"

// table maps server error numbers (decimal, as upstream.code shows them)
// to toolerr codes. The numbers and names are those of the MySQL "Server
// Error Message Reference" and "Client Error Message Reference" and of
// MariaDB's "MariaDB Error Codes"; each row says why, citing them or the
// InnoDB chapter of the MySQL manual.
var table = map[string]string{
	// --- The row or key exists, or other rows depend on it.

	// 1062 ER_DUP_ENTRY "Duplicate entry '%s' for key %d", 1586
	// ER_DUP_ENTRY_WITH_KEY_NAME (the same, naming the key), 1022
	// ER_DUP_KEY "Can't write; duplicate key in table": the row the call
	// tried to create exists.
	"1062": toolerr.CodeConflict,
	"1586": toolerr.CodeConflict,
	"1022": toolerr.CodeConflict,
	// 1452 ER_NO_REFERENCED_ROW_2 "Cannot add or update a child row: a
	// foreign key constraint fails" (1216 ER_NO_REFERENCED_ROW, its form
	// without the constraint): the row the value refers to does not
	// exist. The system's state, not the value's shape, is what the call
	// must check first, as for Postgres's 23503.
	"1452": toolerr.CodePreconditionFailed,
	"1216": toolerr.CodePreconditionFailed,
	// 1451 ER_ROW_IS_REFERENCED_2 "Cannot delete or update a parent row: a
	// foreign key constraint fails" (1217 ER_ROW_IS_REFERENCED): other rows
	// still refer to this one; they must go or change first. A state to
	// read and act on, not a race to re-read and win: PRECONDITION_FAILED.
	"1451": toolerr.CodePreconditionFailed,
	"1217": toolerr.CodePreconditionFailed,

	// --- A value the statement carried does not fit the column.

	// 1048 ER_BAD_NULL_ERROR "Column '%s' cannot be null", 1364
	// ER_NO_DEFAULT_FOR_FIELD "Field '%s' doesn't have a default value"
	// (strict mode): a required value was not given.
	"1048": toolerr.CodeValidationFailed,
	"1364": toolerr.CodeValidationFailed,
	// 3819 ER_CHECK_CONSTRAINT_VIOLATED (MySQL 8.0.16+) and MariaDB's 4025
	// ER_CONSTRAINT_FAILED "CONSTRAINT %s failed for %s": a value breaks
	// the column's rule.
	"3819": toolerr.CodeValidationFailed,
	"4025": toolerr.CodeValidationFailed,
	// 1406 ER_DATA_TOO_LONG "Data too long for column", 1264
	// ER_WARN_DATA_OUT_OF_RANGE "Out of range value for column", 1366
	// ER_TRUNCATED_WRONG_VALUE_FOR_FIELD "Incorrect %s value: '%s' for
	// column", 1292 ER_TRUNCATED_WRONG_VALUE "Truncated incorrect %s
	// value", 1265 WARN_DATA_TRUNCATED "Data truncated for column", 1365
	// ER_DIVISION_BY_ZERO: errors in strict SQL mode for a value of the
	// wrong size, range or shape (Postgres's class 22, data exception).
	"1406": toolerr.CodeValidationFailed,
	"1264": toolerr.CodeValidationFailed,
	"1366": toolerr.CodeValidationFailed,
	"1292": toolerr.CodeValidationFailed,
	"1265": toolerr.CodeValidationFailed,
	"1365": toolerr.CodeValidationFailed,

	// --- Concurrency: locks and rollbacks.

	// 1213 ER_LOCK_DEADLOCK "Deadlock found when trying to get lock; try
	// restarting transaction": InnoDB "automatically detects transaction
	// deadlocks and rolls back a transaction" (manual, "Deadlocks in
	// InnoDB"), and applications should "always be prepared to re-issue a
	// transaction if it fails due to deadlock". Nothing of it stays:
	// retrying the whole call is safe, as for Postgres's 40P01.
	"1213": toolerr.CodeUpstreamUnavailable,
	// 1205 ER_LOCK_WAIT_TIMEOUT "Lock wait timeout exceeded; try restarting
	// transaction": the statement waited innodb_lock_wait_timeout for a
	// row lock another transaction holds. "InnoDB rolls back only the
	// last statement on a transaction timeout by default"
	// (innodb_rollback_on_timeout=OFF): the transaction stays open with
	// its earlier statements, and whether they are committed is the
	// handler's doing, not the server's. A timeout, then, whose outcome
	// the database does not vouch for: retryable only for an idempotent
	// call (see unknownOutcome), where Postgres's statement timeout, which
	// aborts the whole transaction, is retryable for any.
	"1205": toolerr.CodeUpstreamTimeout,
	// 3024 ER_QUERY_TIMEOUT "Query execution was interrupted, maximum
	// statement execution time exceeded": MySQL's max_execution_time,
	// which "applies to read-only SELECT statements" only (manual,
	// "Server System Variables"): nothing was written; retryable.
	"3024": toolerr.CodeUpstreamTimeout,
	// 1969 ER_STATEMENT_TIMEOUT "Query execution was interrupted
	// (max_statement_time exceeded)": MariaDB's max_statement_time, which
	// applies to every statement, writes included; on a non-transactional
	// table (MyISAM, Aria) an interrupted write keeps the rows it changed,
	// so the outcome is unknown (see unknownOutcome).
	"1969": toolerr.CodeUpstreamTimeout,
	// 1317 ER_QUERY_INTERRUPTED "Query execution was interrupted": a KILL
	// QUERY from another session (an operator, a watchdog) or a server
	// shutting down; not this call's own cancellation, which the driver
	// reports as the context's error. A passing condition, but a write
	// killed on a non-transactional table keeps what it changed so far
	// (the manual's KILL statement): retryable only for an idempotent
	// call.
	"1317": toolerr.CodeUpstreamUnavailable,

	// --- The server cannot take the call now.

	// 1040 ER_CON_COUNT_ERROR "Too many connections", 1203
	// ER_TOO_MANY_USER_CONNECTIONS "User %s already has more than
	// 'max_user_connections' active connections": refused at connect,
	// nothing ran; a later call may find a free slot.
	"1040": toolerr.CodeUpstreamUnavailable,
	"1203": toolerr.CodeUpstreamUnavailable,
	// 1290 ER_OPTION_PREVENTS_STATEMENT "The MySQL server is running with
	// the %s option so it cannot execute this statement" (--read-only: a
	// primary demoted during a failover), 1836 ER_READ_ONLY_MODE "Running
	// in read-only mode", 1792 ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION:
	// the three numbers go-sql-driver's rejectReadOnly treats as a
	// failover in progress ("a possible race condition during failover",
	// its source). The write did not run; the new primary will take it.
	"1290": toolerr.CodeUpstreamUnavailable,
	"1836": toolerr.CodeUpstreamUnavailable,
	"1792": toolerr.CodeUpstreamUnavailable,
	// 1053 ER_SERVER_SHUTDOWN "Server shutdown in progress", MariaDB's 1927
	// ER_CONNECTION_KILLED "Connection was killed", 2006
	// CR_SERVER_GONE_ERROR "MySQL server has gone away" and 2013
	// CR_SERVER_LOST "Lost connection to MySQL server during query" (client
	// error numbers: go-sql-driver never makes them itself, but a proxy
	// between it and the server may relay them): the server or the
	// connection went away, possibly mid-statement; see unknownOutcome.
	"1053": toolerr.CodeUpstreamUnavailable,
	"1927": toolerr.CodeUpstreamUnavailable,
	"2006": toolerr.CodeUpstreamUnavailable,
	"2013": toolerr.CodeUpstreamUnavailable,
	// go-sql-driver's ErrInvalidConn: the connection broke while the
	// driver read the answer (it returns driver.ErrBadConn, which
	// database/sql retries, only when nothing was sent). The statement
	// may have run: retryable only for an idempotent call.
	invalidConn: toolerr.CodeUpstreamUnavailable,

	// --- The service's own configuration or query.

	// 1045 ER_ACCESS_DENIED_ERROR "Access denied for user" (wrong
	// password), 1044 ER_DBACCESS_DENIED_ERROR (no access to the
	// database), 1142 ER_TABLEACCESS_DENIED_ERROR "%s command denied to
	// user", 1143 ER_COLUMNACCESS_DENIED_ERROR, 1227
	// ER_SPECIFIC_ACCESS_DENIED_ERROR "you need (at least one of) the %s
	// privilege(s)", 1698 ER_ACCESS_DENIED_NO_PASSWORD_ERROR: the
	// service's account or its grants, which only its operator can fix.
	"1045": toolerr.CodeUpstreamMisconfigured,
	"1044": toolerr.CodeUpstreamMisconfigured,
	"1142": toolerr.CodeUpstreamMisconfigured,
	"1143": toolerr.CodeUpstreamMisconfigured,
	"1227": toolerr.CodeUpstreamMisconfigured,
	"1698": toolerr.CodeUpstreamMisconfigured,
	// 1049 ER_BAD_DB_ERROR "Unknown database": the service's DSN names a
	// database the server does not have.
	"1049": toolerr.CodeUpstreamMisconfigured,
	// 1146 ER_NO_SUCH_TABLE "Table '%s.%s' doesn't exist", 1054
	// ER_BAD_FIELD_ERROR "Unknown column", 1064 ER_PARSE_ERROR "You have an
	// error in your SQL syntax", 1149 ER_SYNTAX_ERROR, 1305
	// ER_SP_DOES_NOT_EXIST, 1136 ER_WRONG_VALUE_COUNT_ON_ROW "Column count
	// doesn't match value count", 1052 ER_NON_UNIQ_ERROR "Column '%s' in
	// %s is ambiguous": the service's own query is wrong (Postgres's class
	// 42); no argument of the agent's will fix it.
	"1146": toolerr.CodeInternal,
	"1054": toolerr.CodeInternal,
	"1064": toolerr.CodeInternal,
	"1149": toolerr.CodeInternal,
	"1305": toolerr.CodeInternal,
	"1136": toolerr.CodeInternal,
	"1052": toolerr.CodeInternal,
}

// unknownOutcome holds the numbers whose statement may have taken effect
// although it failed: a retryable result is then retryable only for an
// idempotent call (a GET, or one with an idempotency key), as for a
// timeout.
var unknownOutcome = map[string]bool{
	"1205":      true, // the transaction's earlier statements stay open
	"1969":      true, // a non-transactional write may be half done
	"1317":      true, // likewise
	"1053":      true, // the server went down mid-statement
	"1927":      true, // the connection was killed mid-statement
	"2006":      true,
	"2013":      true,
	invalidConn: true,
}
