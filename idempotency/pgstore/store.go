package pgstore

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/toolerr/toolerr/idempotency"
)

// Defaults of a [Store].
const (
	// DefaultSchema is the schema of the store's table.
	DefaultSchema = "public"
	// DefaultTable is the name of the store's table; its sequence, index
	// and functions take names derived from it.
	DefaultTable = "toolerr_idempotency"
	// DefaultInFlightGrace is how long an InFlight record outlives its
	// lease before it expires.
	DefaultInFlightGrace = time.Minute
	// DefaultTimeout bounds each call of the store (or the caller's
	// deadline, when sooner).
	DefaultTimeout = time.Second
	// DefaultSweepBatch is how many expired rows one statement of Sweep
	// deletes at most.
	DefaultSweepBatch = 1000
	// DefaultSweepInterval is how often RunSweeper sweeps when given no
	// interval.
	DefaultSweepInterval = time.Minute
)

// maxDuration caps leases, grace periods and retentions, so that expiry
// times stay far within Postgres's timestamp range.
const maxDuration = 100 * 365 * 24 * time.Hour

// Store is an [idempotency.Store] in PostgreSQL. It is safe for concurrent
// use, by any number of processes sharing the database.
type Store struct {
	pool          *pgxpool.Pool
	schema, table string
	grace         time.Duration
	timeout       time.Duration
	sweepBatch    int
	sql           statements
}

var _ idempotency.Store = (*Store)(nil)

// Option configures a [Store].
type Option func(*Store)

// WithSchema sets the schema of the store's table, which must exist.
// Default: [DefaultSchema] ("public"). An empty name keeps the default.
func WithSchema(name string) Option {
	return func(s *Store) {
		if name != "" {
			s.schema = name
		}
	}
}

// WithTable sets the name of the store's table, to separate services or
// environments sharing a database; the sequence, index and functions of
// the table derive their names from it. Keep it under 50 bytes (Postgres
// truncates identifiers at 63). Default: [DefaultTable]
// ("toolerr_idempotency"). An empty name keeps the default.
func WithTable(name string) Option {
	return func(s *Store) {
		if name != "" {
			s.table = name
		}
	}
}

// WithInFlightGrace sets how long an InFlight record is kept after its
// lease lapsed. During the grace period a new claim takes the lapsed one
// over keeping its creation time, and the lapsed claim's owner may still
// complete or release it until then if nobody took it over. Default:
// [DefaultInFlightGrace] (1 minute). Negative values keep the default.
func WithInFlightGrace(d time.Duration) Option {
	return func(s *Store) {
		if d >= 0 {
			s.grace = min(d, maxDuration)
		}
	}
}

// WithTimeout sets the store's own deadline for each call: a call ends at
// this timeout or at its context's deadline, whichever comes first, also
// on the server when it waits on a row lock (lock_timeout). Keep it short:
// a store that does not answer should fail the request fast, as
// idempotency.Middleware's own store deadline (WithStoreTimeout, 500 ms by
// default) does. Default: [DefaultTimeout] (1 s). Values below 1 keep the
// default.
func WithTimeout(d time.Duration) Option {
	return func(s *Store) {
		if d > 0 {
			s.timeout = d
		}
	}
}

// WithSweepBatch sets how many expired rows one statement of
// [Store.Sweep] deletes at most, bounding each statement's locks and
// duration. Default: [DefaultSweepBatch] (1000). Values below 1 keep the
// default.
func WithSweepBatch(n int) Option {
	return func(s *Store) {
		if n > 0 {
			s.sweepBatch = n
		}
	}
}

// New returns a Store over pool. The table must exist: run
// [Store.Migrate] once (or [MigrationSQL] in a migration tool) first.
//
// Size the pool for the requests in flight: each call holds a connection
// for one round trip, and a call waiting for a free connection counts
// against its deadline. Each method is one round trip once its statement
// is prepared on the connection (pgx's default statement cache prepares it
// on first use, one extra round trip per connection); with
// QueryExecModeExec in the pool's config it is always one.
func New(pool *pgxpool.Pool, opts ...Option) *Store {
	s := &Store{
		pool:       pool,
		schema:     DefaultSchema,
		table:      DefaultTable,
		grace:      DefaultInFlightGrace,
		timeout:    DefaultTimeout,
		sweepBatch: DefaultSweepBatch,
	}
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
	s.sql = newStatements(newNames(s.schema, s.table))
	return s
}

// errNoPool is returned by every method of a Store without a pool.
var errNoPool = errors.New("pgstore: nil pgx pool")

// begin checks that a call can start, and returns its context, bounded by
// the store's timeout.
func (s *Store) begin(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if s == nil || s.pool == nil {
		return ctx, func() {}, errNoPool
	}
	if err := ctx.Err(); err != nil {
		return ctx, func() {}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	return ctx, cancel, nil
}

// acquire takes a connection of the pool for a call that may wait on row
// locks, and returns with it the lock timeout for the server: the time left
// once the connection is in hand, less a margin (a tenth, at most 20 ms),
// so that the server gives up waiting slightly before the caller does. A
// call whose caller gave up then does not take effect later on the server
// (but for the network's delay), and its connection stays usable.
func (s *Store) acquire(ctx context.Context) (*pgxpool.Conn, int64, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, 0, err
	}
	lockMS := int64(1)
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		lockMS = max(int64((left-min(left/10, lockMargin))/time.Millisecond), 1)
	}
	return conn, lockMS, nil
}

// lockMargin is the most by which a call's lock timeout on the server is
// shorter than its deadline.
const lockMargin = 20 * time.Millisecond
