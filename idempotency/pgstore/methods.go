package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolerr/toolerr/idempotency"
)

// statements are the SQL texts of a store's calls, built once in New.
type statements struct {
	claim, complete, release, get, sweep string
}

// recordColumns are the columns a claim's or a get's row holds, after the
// claim's flag, in the order scanRecord reads them.
const recordColumns = "fingerprint, state, token, created_at, lease_until, status, header, body"

// newStatements builds the statements over the objects in n.
func newStatements(n names) statements {
	return statements{
		claim:    "SELECT * FROM " + n.claim + "($1, $2, $3, $4, $5)",
		complete: "SELECT " + n.complete + "($1, $2, $3, $4, $5, $6, $7)",
		release:  "SELECT " + n.release + "($1, $2, $3)",
		// An InFlight record counts until its lease, a Completed one until
		// its retention: Get hides a lapsed claim, as Claim takes it over.
		get: "SELECT " + recordColumns + " FROM " + n.table +
			" WHERE key = $1 AND CASE WHEN state = 1 THEN lease_until > clock_timestamp() ELSE expires_at > clock_timestamp() END",
		// The inner SELECT walks the expiry index from its oldest entry
		// (now() rather than clock_timestamp(): a stable bound is an index
		// condition, so a table without expired rows costs one index
		// probe) and locks the rows it returns, checking their newest
		// version, so no claim renews them before the DELETE; SKIP LOCKED
		// passes over rows a claim is taking over. The DELETE is then
		// primary-key lookups of an array of keys, never a scan.
		sweep: "DELETE FROM " + n.table + " WHERE key = ANY(ARRAY(SELECT key FROM " + n.table +
			" WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED))",
	}
}

// Claim implements [idempotency.Store.Claim] in one round trip.
func (s *Store) Claim(ctx context.Context, key, fp string, lease time.Duration) (idempotency.Claim, error) {
	ctx, cancel, err := s.begin(ctx)
	defer cancel()
	if err != nil {
		return idempotency.Claim{}, fmt.Errorf("pgstore: claim: %w", err)
	}
	conn, lockMS, err := s.acquire(ctx)
	if err != nil {
		return idempotency.Claim{}, fmt.Errorf("pgstore: claim: %w", err)
	}
	defer conn.Release()
	lease = min(max(lease, 0), maxDuration)
	row := conn.QueryRow(ctx, s.sql.claim, []byte(key), []byte(fp), lease.Microseconds(), s.grace.Microseconds(), lockMS)
	var claimed bool
	var sr scannedRecord
	if err := row.Scan(append([]any{&claimed}, sr.dest()...)...); err != nil {
		return idempotency.Claim{}, fmt.Errorf("pgstore: claim: %w", err)
	}
	if claimed {
		return idempotency.Claim{Claimed: true, Token: uint64(sr.token)}, nil
	}
	rec, err := sr.record()
	if err != nil {
		return idempotency.Claim{}, fmt.Errorf("pgstore: claim: %w", err)
	}
	return idempotency.Claim{Existing: rec}, nil
}

// Complete implements [idempotency.Store.Complete] in one round trip. A
// retention below one microsecond is one microsecond.
func (s *Store) Complete(ctx context.Context, key string, token uint64, resp idempotency.Response, retention time.Duration) error {
	ctx, cancel, err := s.begin(ctx)
	defer cancel()
	if err != nil {
		return fmt.Errorf("pgstore: complete: %w", err)
	}
	if token == 0 || token > math.MaxInt64 {
		return idempotency.ErrLostClaim // never issued
	}
	hdr, err := encodeHeader(resp.Header)
	if err != nil {
		return fmt.Errorf("pgstore: complete: %w", err)
	}
	body := resp.Body
	if body == nil {
		body = []byte{}
	}
	retention = min(max(retention, time.Microsecond), maxDuration)
	conn, lockMS, err := s.acquire(ctx)
	if err != nil {
		return fmt.Errorf("pgstore: complete: %w", err)
	}
	defer conn.Release()
	var ok bool
	err = conn.QueryRow(ctx, s.sql.complete, []byte(key), int64(token), int32(resp.Status), hdr, body,
		retention.Microseconds(), lockMS).Scan(&ok)
	if err != nil {
		return fmt.Errorf("pgstore: complete: %w", err)
	}
	if !ok {
		return idempotency.ErrLostClaim
	}
	return nil
}

// Release implements [idempotency.Store.Release] in one round trip: it
// deletes the row, as the token sequence keeps later tokens greater.
func (s *Store) Release(ctx context.Context, key string, token uint64) error {
	ctx, cancel, err := s.begin(ctx)
	defer cancel()
	if err != nil {
		return fmt.Errorf("pgstore: release: %w", err)
	}
	if token == 0 || token > math.MaxInt64 {
		return idempotency.ErrLostClaim // never issued
	}
	conn, lockMS, err := s.acquire(ctx)
	if err != nil {
		return fmt.Errorf("pgstore: release: %w", err)
	}
	defer conn.Release()
	var ok bool
	if err := conn.QueryRow(ctx, s.sql.release, []byte(key), int64(token), lockMS).Scan(&ok); err != nil {
		return fmt.Errorf("pgstore: release: %w", err)
	}
	if !ok {
		return idempotency.ErrLostClaim
	}
	return nil
}

// Get implements [idempotency.Store.Get] in one round trip. An InFlight
// record whose lease lapsed is reported as no record, as the next Claim
// takes it over; so is an expired record not swept yet.
func (s *Store) Get(ctx context.Context, key string) (idempotency.Record, bool, error) {
	ctx, cancel, err := s.begin(ctx)
	defer cancel()
	if err != nil {
		return idempotency.Record{}, false, fmt.Errorf("pgstore: get: %w", err)
	}
	var sr scannedRecord
	err = s.pool.QueryRow(ctx, s.sql.get, []byte(key)).Scan(sr.dest()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return idempotency.Record{}, false, nil
	}
	if err != nil {
		return idempotency.Record{}, false, fmt.Errorf("pgstore: get: %w", err)
	}
	rec, err := sr.record()
	if err != nil {
		return idempotency.Record{}, false, fmt.Errorf("pgstore: get: %w", err)
	}
	return rec, true, nil
}

// scannedRecord receives the columns of recordColumns.
type scannedRecord struct {
	fingerprint []byte
	state       int16
	token       int64
	createdAt   time.Time
	leaseUntil  *time.Time
	status      *int32
	header      *string
	body        []byte
}

// dest returns the scan destinations, in the order of recordColumns.
func (r *scannedRecord) dest() []any {
	return []any{&r.fingerprint, &r.state, &r.token, &r.createdAt, &r.leaseUntil, &r.status, &r.header, &r.body}
}

// record builds the idempotency record of the scanned columns.
func (r *scannedRecord) record() (idempotency.Record, error) {
	rec := idempotency.Record{
		Fingerprint: string(r.fingerprint),
		Token:       uint64(r.token),
		CreatedAt:   r.createdAt,
	}
	switch r.state {
	case 1:
		rec.State = idempotency.InFlight
		if r.leaseUntil == nil {
			return rec, errors.New("corrupt record: InFlight without a lease")
		}
		rec.LeaseUntil = *r.leaseUntil
		return rec, nil
	case 2:
		rec.State = idempotency.Completed
	default:
		return rec, fmt.Errorf("corrupt record: state %d", r.state)
	}
	if r.status == nil {
		return rec, errors.New("corrupt record: Completed without a status")
	}
	resp := &idempotency.Response{Status: int(*r.status), Body: r.body}
	if r.header != nil {
		if err := json.Unmarshal([]byte(*r.header), &resp.Header); err != nil {
			return rec, fmt.Errorf("corrupt record: header: %w", err)
		}
	}
	rec.Response = resp
	return rec, nil
}

// encodeHeader encodes h as JSON, or NULL (nil) when h is empty.
func encodeHeader(h http.Header) (*string, error) {
	if len(h) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}
