package idempotency

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// State is where the execution of a key stands.
type State int

const (
	// InFlight: a request holds the claim and is running; its lease says
	// until when the claim holds if nobody completes or releases it.
	InFlight State = iota + 1
	// Completed: the response is stored and is replayed to retries.
	Completed
)

// Response is a stored response: what a retry with the same key replays.
type Response struct {
	// Status is the HTTP status.
	Status int
	// Header holds the allow-listed response headers.
	Header http.Header
	// Body is the whole response body.
	Body []byte
}

// Record is what a store keeps for one key.
type Record struct {
	// Fingerprint identifies the request that claimed the key (method,
	// route and canonical body); a retry with another fingerprint is a
	// reused key.
	Fingerprint string
	// State is InFlight or Completed.
	State State
	// Token is the fencing token of the claim that wrote the record.
	Token uint64
	// LeaseUntil is when an InFlight claim lapses.
	LeaseUntil time.Time
	// CreatedAt is when the key was first claimed.
	CreatedAt time.Time
	// Response is the stored response of a Completed record.
	Response *Response
}

// Claim is the answer of [Store.Claim].
type Claim struct {
	// Claimed is true when the caller now owns the key: it must run the
	// request, then Complete or Release with Token.
	Claimed bool
	// Token is the fencing token of the new claim.
	Token uint64
	// Existing is the record that prevented the claim, when not Claimed.
	Existing Record
}

// ErrLostClaim is returned by Complete and Release when the caller's
// claim is no longer the key's: its lease lapsed and another request
// claimed the key. The late writer must not overwrite the new owner.
var ErrLostClaim = errors.New("idempotency: the claim was lost (lease expired and the key was claimed again)")

// ErrStoreFull is returned (wrapped) by Claim of a bounded store that has
// no room for a new claim without dropping a claim in flight, which would
// let a retry of that request run while it still runs. [Middleware]
// answers it with IDEMPOTENCY_UNAVAILABLE (503, retryable), even with
// [FailOpen]; [DuplicateGuard] lets the call through.
var ErrStoreFull = errors.New("idempotency: the store is full of requests in flight")

// Store keeps idempotency records. Implementations must be safe for
// concurrent use by many processes when they are shared (Redis), and make
// Claim atomic: of any number of concurrent claims of one key, exactly one
// succeeds. A bounded store never drops an InFlight record whose lease
// holds: it refuses the new claim with [ErrStoreFull] instead.
//
// Every method should return promptly once ctx is done. [Middleware] and
// [DuplicateGuard] give each call a deadline ([WithStoreTimeout]) and, for
// stores other than [MemoryStore], stop waiting for a call that overruns it
// (the call goes on in the background until the store returns; a claim
// that succeeds after its caller gave up is released).
type Store interface {
	// Claim claims key for a request with fingerprint fp. When key has no
	// record, or only an InFlight one whose lease has lapsed, Claim records
	// an InFlight claim with a lease of the given length and a fencing
	// token greater than any earlier token of the key, and returns it. It
	// keeps CreatedAt of a lapsed claim it takes over. Otherwise it returns
	// the existing record, unchanged.
	Claim(ctx context.Context, key, fp string, lease time.Duration) (Claim, error)
	// Complete stores resp for key and keeps the record for retention,
	// if token still holds the claim; else it returns ErrLostClaim.
	Complete(ctx context.Context, key string, token uint64, resp Response, retention time.Duration) error
	// Release deletes the InFlight claim of token, so that a retry runs
	// the request again; ErrLostClaim when token no longer holds it.
	Release(ctx context.Context, key string, token uint64) error
	// Get returns the record of key; ok is false when there is none (or it
	// expired).
	Get(ctx context.Context, key string) (rec Record, ok bool, err error)
}
