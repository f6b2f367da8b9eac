package retrygate

import (
	"context"
	"time"
)

// realClock is the Clock of a Policy whose Clock is nil: the wall clock, and
// a sleep that ends early when the context is done.
type realClock struct{}

// Now returns time.Now().
func (realClock) Now() time.Time { return time.Now() }

// Sleep waits d on a timer, or until ctx is done, whichever comes first. It
// returns ctx.Err() when the context ended the wait, nil otherwise. A d of
// zero or less does not wait but still reports a done context.
func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// clockOf returns the policy's clock, or the real one when it has none.
func clockOf(p Policy) Clock {
	if p.Clock != nil {
		return p.Clock
	}
	return realClock{}
}
