// Package mysqlerr classifies the errors of MySQL and MariaDB met through
// go-sql-driver/mysql: a *mysql.MySQLError anywhere in a handler's error
// chain becomes a classify.Outcome naming the vendor "mysql" and the
// server's error number (upstream.code "1062"), and so a toolerr error
// with the right code and retryability instead of INTERNAL_ERROR.
//
// It is a Go module of its own, beside the core, because it needs the
// driver's type: *mysql.MySQLError has the fields Number, SQLState and
// Message but no method an interface could match (unlike pgx's
// SQLState(), which classify.SQLStateMapper reads with nothing imported),
// so the mapper must import github.com/go-sql-driver/mysql, and a service
// that uses another database should not download it. Add it to the
// middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(mysqlerr.Mapper()))
//
// The table (table.go, each row with its reason from the MySQL and
// MariaDB error references and the InnoDB manual) follows the Postgres
// SQLSTATE mapper, so a service gets the same answers from either
// database:
//
//   - 1062/1586/1022 duplicate key: CONFLICT.
//   - 1452/1216 no referenced row, 1451/1217 row still referenced:
//     PRECONDITION_FAILED; the state of other rows decides, not the
//     value's shape.
//   - 1048 not null, 1364 no default, 3819 (MariaDB 4025) check
//     constraint, 1406 too long, 1264 out of range, 1366/1292/1265
//     incorrect or truncated value, 1365 division by zero:
//     VALIDATION_FAILED.
//   - 1213 deadlock: UPSTREAM_UNAVAILABLE, retryable for any call, since
//     InnoDB rolled the whole transaction back.
//   - 1205 lock wait timeout: UPSTREAM_TIMEOUT, retryable only for an
//     idempotent call (a GET, or one with an idempotency key). With the
//     default innodb_rollback_on_timeout=OFF InnoDB rolls back only the
//     waiting statement; the transaction's earlier statements stay, and
//     the handler may still commit them, so the database does not vouch
//     that nothing took effect.
//   - 3024 (MySQL's max_execution_time, SELECT only): UPSTREAM_TIMEOUT,
//     retryable; 1969 (MariaDB's max_statement_time, any statement):
//     UPSTREAM_TIMEOUT, retryable only for an idempotent call.
//   - 1040/1203 too many connections, 1290/1836/1792 read-only (a
//     failover): UPSTREAM_UNAVAILABLE, retryable, nothing ran. 1317 query
//     interrupted, 1053 shutdown, 1927 connection killed, 2006/2013 and
//     the driver's mysql.ErrInvalidConn (the connection broke while the
//     driver waited for the answer): UPSTREAM_UNAVAILABLE, retryable only
//     for an idempotent call, since the statement may have run.
//     driver.ErrBadConn, which the driver returns only when nothing was
//     sent, is classify.SQLMapper's (retryable for any call).
//   - 1045/1044/1142/1143/1227/1698 access denied, 1049 unknown database:
//     UPSTREAM_MISCONFIGURED, the service's account.
//   - 1146/1054/1064/1149/1305/1136/1052, a bad table, column or
//     statement: INTERNAL_ERROR, the service's own query.
//
// Other numbers are UPSTREAM_UNCLASSIFIED with their number as
// upstream.code, reported to the classifier's observer as unmapped.
//
// The server's message is never used: it quotes the statement's values
// (the duplicate key, the value that did not fit), which may be personal
// data or secrets, so the detail is the code's title.
package mysqlerr
