package idempotency

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// DefaultStoreTimeout bounds each call of [Middleware] and [DuplicateGuard]
// to their store: long enough for a Redis round trip on a busy network and
// a new connection, short enough that an unreachable store fails closed
// (IDEMPOTENCY_UNAVAILABLE) well before an agent's own timeout.
const DefaultStoreTimeout = 500 * time.Millisecond

// WithStoreTimeout sets the deadline of each store call (Claim, Complete,
// Release, Get) of [Middleware] and [DuplicateGuard]. The call's context
// carries it, and the middleware stops waiting when it passes even if the
// store ignores its context (a client dialling or retrying on its own
// timeouts): an unreachable store answers within about this deadline, with
// IDEMPOTENCY_UNAVAILABLE from Middleware and a pass-through from
// DuplicateGuard. A [MemoryStore], which never waits on I/O, is called
// directly, without either. Default: [DefaultStoreTimeout] (500 ms).
// Values below 1 keep the default.
func WithStoreTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.storeTimeout = d
		}
	}
}

// bound returns s with every call bounded by timeout. A [MemoryStore]
// never waits on I/O and checks its context: it is called directly.
func bound(s Store, timeout time.Duration) Store {
	if _, ok := s.(*MemoryStore); ok {
		return s
	}
	return boundedStore{store: s, timeout: timeout}
}

// boundedStore is a Store whose calls end by their deadline.
type boundedStore struct {
	store   Store
	timeout time.Duration
}

// Claim implements [Store.Claim]. A claim that succeeds after the caller
// stopped waiting is released, so that the key's retry is not refused as
// in progress until the lease lapses.
func (b boundedStore) Claim(ctx context.Context, key, fp string, lease time.Duration) (Claim, error) {
	late := func(c Claim) {
		if c.Claimed {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
			defer cancel()
			_ = b.store.Release(rctx, key, c.Token)
		}
	}
	return within(ctx, b.timeout, "claim", func(ctx context.Context) (Claim, error) {
		return b.store.Claim(ctx, key, fp, lease)
	}, late)
}

// Complete implements [Store.Complete].
func (b boundedStore) Complete(ctx context.Context, key string, token uint64, resp Response, retention time.Duration) error {
	_, err := within(ctx, b.timeout, "complete", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, b.store.Complete(ctx, key, token, resp, retention)
	}, nil)
	return err
}

// Release implements [Store.Release].
func (b boundedStore) Release(ctx context.Context, key string, token uint64) error {
	_, err := within(ctx, b.timeout, "release", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, b.store.Release(ctx, key, token)
	}, nil)
	return err
}

// Get implements [Store.Get].
func (b boundedStore) Get(ctx context.Context, key string) (Record, bool, error) {
	type found struct {
		rec Record
		ok  bool
	}
	f, err := within(ctx, b.timeout, "get", func(ctx context.Context) (found, error) {
		rec, ok, err := b.store.Get(ctx, key)
		return found{rec, ok}, err
	}, nil)
	return f.rec, f.ok, err
}

// Outcomes of a bounded call, decided once by whichever comes first: the
// call's answer or the caller's giving up.
const (
	callPending int32 = iota
	callAnswered
	callAbandoned
)

// within runs call with a context that ends after timeout, and returns its
// result, or an error wrapping the context's error once the context ends
// first, without waiting for call to return. late, when not nil, receives
// the successful result of a call that answered after its caller gave up.
// A panic of call becomes its error: it runs on its own goroutine, where a
// panic would end the process.
func within[T any](ctx context.Context, timeout time.Duration, op string, call func(context.Context) (T, error), late func(T)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	answer := make(chan result, 1)
	var state atomic.Int32
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("idempotency: store %s panicked: %v", op, p)}
			}
			if state.CompareAndSwap(callPending, callAnswered) {
				answer <- res
				return
			}
			if late != nil && res.err == nil {
				safely(func() { late(res.v) })
			}
		}()
		res.v, res.err = call(ctx)
	}()
	select {
	case res := <-answer:
		return res.v, res.err
	case <-ctx.Done():
		if !state.CompareAndSwap(callPending, callAbandoned) {
			res := <-answer // answered at the same moment
			return res.v, res.err
		}
		var zero T
		return zero, fmt.Errorf("idempotency: store %s: no answer within %v: %w", op, timeout, ctx.Err())
	}
}

// safely runs f, dropping a panic: it cleans up after a caller that is
// gone, on a goroutine where a panic would end the process.
func safely(f func()) {
	defer func() { _ = recover() }()
	f()
}
