// Package pgxtest tests classify's SQLSTATE mapper against a real
// PostgreSQL server through pgx, the driver that produces the errors. It
// is a module of its own so that pgx stays out of the core module's
// dependencies: the mapper itself needs no driver (it matches pgconn's
// SQLState method). The tests start postgres on a free loopback port (the
// Debian package postgresql; initdb and postgres run as the postgres user
// when the tests run as root); under CI=true a missing server fails them.
package pgxtest
