package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
)

// Defaults of a [Store].
const (
	// DefaultKeyPrefix is prepended to every idempotency key.
	DefaultKeyPrefix = "toolerr:idem:"
	// DefaultInFlightGrace is how long an InFlight record outlives its
	// lease before Redis deletes it.
	DefaultInFlightGrace = time.Minute
)

// maxDuration caps leases, grace periods and retentions, so that
// expiry times stay far within Redis's and Lua's integer ranges.
const maxDuration = 100 * 365 * 24 * time.Hour

// Store is an [idempotency.Store] in Redis. It is safe for concurrent use,
// by any number of processes sharing the server.
type Store struct {
	client redis.UniversalClient
	prefix string
	grace  time.Duration
	ack    replicaAck
	runs   *runsWatch // runs_watch.go
}

var _ idempotency.Store = (*Store)(nil)

// Option configures a [Store].
type Option func(*Store)

// WithKeyPrefix sets the prefix of the Redis keys of the records, to
// separate services or environments sharing a server. Default:
// [DefaultKeyPrefix] ("toolerr:idem:"). An empty prefix is allowed.
func WithKeyPrefix(prefix string) Option {
	return func(s *Store) { s.prefix = prefix }
}

// WithInFlightGrace sets how long an InFlight record is kept after its
// lease lapsed, until Redis deletes it. During the grace period a new claim
// takes the lapsed one over keeping its creation time, and the lapsed
// claim's token keeps the next one greater by exactly one. Default:
// [DefaultInFlightGrace] (1 minute). Negative values keep the default.
func WithInFlightGrace(d time.Duration) Option {
	return func(s *Store) {
		if d >= 0 {
			s.grace = d
		}
	}
}

// New returns a Store over client. idempotency.Middleware and
// DuplicateGuard stop waiting for a call at their store deadline
// (idempotency.WithStoreTimeout, 500 ms by default) whatever the client
// does, so an unreachable server fails closed within about that deadline.
// The abandoned call itself ends on the client's own timeouts, dial and
// retries included, unless the client honours contexts: set
// ContextTimeoutEnabled in its options so that it ends at the deadline too,
// and keep its dial and read timeouts short.
func New(client redis.UniversalClient, opts ...Option) *Store {
	s := &Store{client: client, prefix: DefaultKeyPrefix, grace: DefaultInFlightGrace, runs: newRunsWatch()}
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
	s.runs.channel = s.prefix + RunsChannel
	return s
}

// errNoClient is returned by every method of a Store without a client.
var errNoClient = errors.New("redisstore: nil redis client")

// Claim implements [idempotency.Store.Claim] in one round trip. With
// [WithReplicaAck], a claim the replicas did not acknowledge is released
// and Claim returns an error wrapping [ErrNotReplicated].
func (s *Store) Claim(ctx context.Context, key, fp string, lease time.Duration) (idempotency.Claim, error) {
	if err := s.check(ctx); err != nil {
		return idempotency.Claim{}, fmt.Errorf("redisstore: claim: %w", err)
	}
	lease = min(max(lease, 0), maxDuration)
	ttl := millisCeil(lease) + millisCeil(min(s.grace, maxDuration))
	res, ack := s.run(ctx, claimScript, s.prefix+key, fp, lease.Microseconds(), max(ttl, 1))
	vals, err := res.Slice()
	if err != nil {
		return idempotency.Claim{}, fmt.Errorf("redisstore: claim: %w", err)
	}
	if len(vals) == 2 && isOne(vals[0]) {
		tok, err := strconv.ParseUint(str(vals[1]), 10, 64)
		if err != nil {
			return idempotency.Claim{}, fmt.Errorf("redisstore: claim: bad token: %w", err)
		}
		if ack != nil {
			s.releaseUnreplicated(ctx, key, tok)
			return idempotency.Claim{}, fmt.Errorf("redisstore: claim released: %w", ack)
		}
		return idempotency.Claim{Claimed: true, Token: tok}, nil
	}
	if len(vals) != 1+nFields {
		return idempotency.Claim{}, fmt.Errorf("redisstore: claim: unexpected reply of %d values", len(vals))
	}
	rec, err := decode(vals[1:])
	if err != nil {
		return idempotency.Claim{}, fmt.Errorf("redisstore: claim: %w", err)
	}
	return idempotency.Claim{Existing: rec}, nil
}

// Complete implements [idempotency.Store.Complete] in one round trip. A
// retention below one millisecond is one millisecond. With
// [WithReplicaAck], a completion the replicas did not acknowledge returns
// an error wrapping [ErrNotReplicated], and stays on the primary.
func (s *Store) Complete(ctx context.Context, key string, token uint64, resp idempotency.Response, retention time.Duration) error {
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("redisstore: complete: %w", err)
	}
	hdr, err := encodeHeader(resp.Header)
	if err != nil {
		return fmt.Errorf("redisstore: complete: %w", err)
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	res, ack := s.run(ctx, completeScript, s.prefix+key,
		strconv.FormatUint(token, 10), resp.Status, hdr, body, max(millisCeil(min(retention, maxDuration)), 1))
	n, err := res.Int64()
	if err != nil {
		return fmt.Errorf("redisstore: complete: %w", err)
	}
	if n != 1 {
		return idempotency.ErrLostClaim
	}
	if ack != nil {
		return fmt.Errorf("redisstore: complete: %w", ack)
	}
	return nil
}

// Release implements [idempotency.Store.Release] in one round trip.
func (s *Store) Release(ctx context.Context, key string, token uint64) error {
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("redisstore: release: %w", err)
	}
	n, err := releaseScript.Run(ctx, s.client, []string{s.prefix + key}, strconv.FormatUint(token, 10)).Int64()
	if err != nil {
		return fmt.Errorf("redisstore: release: %w", err)
	}
	if n != 1 {
		return idempotency.ErrLostClaim
	}
	return nil
}

// Get implements [idempotency.Store.Get] in one round trip. An InFlight
// record whose lease lapsed is reported as no record, as the next Claim
// takes it over.
func (s *Store) Get(ctx context.Context, key string) (idempotency.Record, bool, error) {
	if err := s.check(ctx); err != nil {
		return idempotency.Record{}, false, fmt.Errorf("redisstore: get: %w", err)
	}
	vals, err := getScript.Run(ctx, s.client, []string{s.prefix + key}).Slice()
	if errors.Is(err, redis.Nil) {
		return idempotency.Record{}, false, nil
	}
	if err != nil {
		return idempotency.Record{}, false, fmt.Errorf("redisstore: get: %w", err)
	}
	if len(vals) != nFields {
		return idempotency.Record{}, false, fmt.Errorf("redisstore: get: unexpected reply of %d values", len(vals))
	}
	rec, err := decode(vals)
	if err != nil {
		return idempotency.Record{}, false, fmt.Errorf("redisstore: get: %w", err)
	}
	return rec, true, nil
}

// check returns why a call cannot start: a done context or no client.
func (s *Store) check(ctx context.Context) error {
	if s == nil || s.client == nil {
		return errNoClient
	}
	return ctx.Err()
}

// decode builds a record from its fields, in the order of fields.
func decode(vals []any) (idempotency.Record, error) {
	var rec idempotency.Record
	switch str(vals[fState]) {
	case "1":
		rec.State = idempotency.InFlight
	case "2":
		rec.State = idempotency.Completed
	default:
		return rec, fmt.Errorf("corrupt record: state %q", str(vals[fState]))
	}
	var err error
	if rec.Token, err = strconv.ParseUint(str(vals[fToken]), 10, 64); err != nil {
		return rec, fmt.Errorf("corrupt record: token: %w", err)
	}
	rec.Fingerprint = str(vals[fFingerprint])
	if rec.CreatedAt, err = micros(vals[fCreatedAt]); err != nil {
		return rec, fmt.Errorf("corrupt record: created at: %w", err)
	}
	if rec.State == idempotency.InFlight {
		if rec.LeaseUntil, err = micros(vals[fLeaseUntil]); err != nil {
			return rec, fmt.Errorf("corrupt record: lease: %w", err)
		}
		return rec, nil
	}
	resp := &idempotency.Response{Body: []byte(str(vals[fBody]))}
	if resp.Status, err = strconv.Atoi(str(vals[fStatus])); err != nil {
		return rec, fmt.Errorf("corrupt record: status: %w", err)
	}
	if resp.Header, err = decodeHeader(str(vals[fHeader])); err != nil {
		return rec, fmt.Errorf("corrupt record: header: %w", err)
	}
	rec.Response = resp
	return rec, nil
}

// encodeHeader encodes h as JSON, or "" when h is empty.
func encodeHeader(h http.Header) (string, error) {
	if len(h) == 0 {
		return "", nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// decodeHeader decodes what encodeHeader encoded; "" is a nil header.
func decodeHeader(s string) (http.Header, error) {
	if s == "" {
		return nil, nil
	}
	var h http.Header
	if err := json.Unmarshal([]byte(s), &h); err != nil {
		return nil, err
	}
	return h, nil
}

// micros parses a time in µs since the Unix epoch.
func micros(v any) (time.Time, error) {
	n, err := strconv.ParseInt(str(v), 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMicro(n), nil
}

// str returns a reply value as a string: "" for nil.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case []byte:
		return string(v)
	default:
		return ""
	}
}

// isOne reports whether a reply value is the integer 1.
func isOne(v any) bool {
	n, ok := v.(int64)
	return ok && n == 1
}

// millisCeil returns d in whole milliseconds, rounded up; 0 for d <= 0.
func millisCeil(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	ms := int64(d / time.Millisecond)
	if d%time.Millisecond != 0 {
		ms++
	}
	return ms
}
