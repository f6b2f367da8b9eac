package idempotency

import (
	"context"
	"time"
)

// Failures is what a [FailureCounter] holds for one call: the run of
// consecutive failures of that call with one code.
type Failures struct {
	// Code is the error code every failure of the run had.
	Code string
	// Count is the number of failures in the run; 0 when there is none.
	Count int
	// Since is when the first failure of the run was counted (by the
	// store's clock).
	Since time.Time
}

// FailureCounter counts consecutive failures of one call (a key that
// names the caller, the tool and the canonical arguments), for
// [ThrashGuard] and [ThrashCalls]. The [MemoryStore] and the Redis store
// (package redisstore) implement it; the PostgreSQL store (package
// pgstore) does not.
//
// Implementations must be safe for concurrent use, by many processes when
// they are shared, and make AddFailure atomic: concurrent failures of one
// key are all counted. Every method should return promptly once ctx is
// done; the guards bound each call by [WithStoreTimeout] as they bound a
// [Store]'s.
type FailureCounter interface {
	// Failures returns the run of failures of key, Count 0 when there is
	// none (or it expired).
	Failures(ctx context.Context, key string) (Failures, error)
	// AddFailure counts a failure of key with code and returns the run it
	// is now part of. The same code as the run's adds one to its Count,
	// keeping its expiry; another code, or no run, starts a run of 1 with
	// code that expires window after now.
	AddFailure(ctx context.Context, key, code string, window time.Duration) (Failures, error)
	// ClearFailures forgets the run of key: the call succeeded.
	ClearFailures(ctx context.Context, key string) error
}

var _ FailureCounter = (*MemoryStore)(nil)

// boundCounter returns c with every call bounded by timeout, as [bound]
// does for a Store. A [MemoryStore] is called directly.
func boundCounter(c FailureCounter, timeout time.Duration) FailureCounter {
	if _, ok := c.(*MemoryStore); ok {
		return c
	}
	return boundedCounter{c: c, timeout: timeout}
}

// boundedCounter is a FailureCounter whose calls end by their deadline.
type boundedCounter struct {
	c       FailureCounter
	timeout time.Duration
}

// Failures implements [FailureCounter.Failures].
func (b boundedCounter) Failures(ctx context.Context, key string) (Failures, error) {
	return within(ctx, b.timeout, "failures", func(ctx context.Context) (Failures, error) {
		return b.c.Failures(ctx, key)
	}, nil)
}

// AddFailure implements [FailureCounter.AddFailure].
func (b boundedCounter) AddFailure(ctx context.Context, key, code string, window time.Duration) (Failures, error) {
	return within(ctx, b.timeout, "add failure", func(ctx context.Context) (Failures, error) {
		return b.c.AddFailure(ctx, key, code, window)
	}, nil)
}

// ClearFailures implements [FailureCounter.ClearFailures].
func (b boundedCounter) ClearFailures(ctx context.Context, key string) error {
	_, err := within(ctx, b.timeout, "clear failures", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, b.c.ClearFailures(ctx, key)
	}, nil)
	return err
}
