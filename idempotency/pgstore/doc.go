// Package pgstore is an [idempotency.Store] in PostgreSQL (pgx v5), shared
// by all the replicas of a service and durable across restarts.
//
// It is a nested module (github.com/toolerr/toolerr/idempotency/pgstore)
// so that users of the core module never download pgx.
//
// # Schema
//
// A key is one row of one table (primary key: the key's bytes). The
// table, its token sequence, its expiry index and three plpgsql functions
// are created by one migration: [MigrationSQL] returns it for a migration
// tool, and [Store.Migrate] runs it; both are idempotent and safe to run
// from several replicas at once. Names derive from the table, so two
// tables (two services) can live in one schema.
//
// # Guarantees
//
//   - One round trip per method. Claim, Complete and Release each call one
//     of the migration's functions, and Get is one SELECT. With pgx's
//     default statement cache the first call of each statement on a
//     connection prepares it first (one extra round trip, once per
//     connection); with QueryExecModeExec there is never a prepare.
//   - Atomic claims. The claim function answers a live row with a read
//     alone (a replay takes no lock and writes nothing); otherwise it runs
//     INSERT ... ON CONFLICT DO UPDATE, taking over only a lapsed or
//     expired row, then reads the row a concurrent claim won with, in a
//     statement of its own, retrying if it vanished meanwhile: of any
//     number of concurrent claims of a key, exactly one succeeds. The
//     functions rely on READ COMMITTED, Postgres's default isolation
//     level (under a stricter default a contended claim fails with a
//     serialization error, which fails closed).
//   - Database clock. Leases, retentions and expiry are measured by the
//     server's clock (clock_timestamp()), never by the Go process's, so
//     replicas with skewed clocks agree. Record.LeaseUntil and
//     Record.CreatedAt are server times.
//   - Fencing tokens come from a sequence: every claim's token is greater
//     than any token issued before it, for any key, also after a Release
//     or the record's expiry.
//   - A lapsed InFlight claim is taken over keeping its CreatedAt, and Get
//     hides it. A Completed record past its retention is absent.
//
// # Expiry
//
// An InFlight row expires at its lease plus a grace period
// ([WithInFlightGrace]); a Completed row at its retention. Expired rows
// are invisible at once, and stay in the table until [Store.Sweep] deletes
// them, in batches of bounded size ([WithSweepBatch]) through the expiry
// index. Run it from a job, or start [Store.RunSweeper] on one or more
// replicas. Claims stay primary-key lookups however many expired rows
// wait.
//
// # Failures
//
// Every call has the store's own deadline ([WithTimeout], 1 s by default,
// or the caller's when sooner), and the functions set lock_timeout to a
// little less than what remains once a connection is in hand, so a call
// that waits on a row lock held elsewhere ends on the server first: it
// takes no effect after its caller gave up, and its connection stays
// usable. An unreachable server, a refused connection, a lock timeout or
// an overrun deadline is an error, which idempotency.Middleware answers
// with IDEMPOTENCY_UNAVAILABLE (503, retryable) and without running the
// handler, unless configured to fail open: as when Redis is down.
// DuplicateGuard lets the call through.
//
// The store does not implement idempotency.FailureCounter: the thrash
// guard (idempotency.ThrashGuard, ThrashCalls) counts its failures in a
// MemoryStore or the Redis store.
//
// # Durability
//
// A claim is durable once its statement commits. With synchronous
// replication (synchronous_commit on and a synchronous standby), a
// committed claim or completion survives a crash of the primary and a
// failover to that standby. With asynchronous replication a failover can
// lose the last commits, the same caveat as with Redis replicas: a claim
// acknowledged just before the failover may be gone on the new primary,
// and a retry could run the request again.
package pgstore
