package retrygate

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// recClock is a fake Clock: Sleep records the wait and moves time on at once.
type recClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newRecClock() *recClock { return &recClock{now: time.Now()} }

func (c *recClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *recClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return nil
}

func (c *recClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

func TestRealClock(t *testing.T) {
	var c realClock
	assert.WithinDuration(t, time.Now(), c.Now(), time.Second)
	assert.NoError(t, c.Sleep(context.Background(), time.Millisecond))
	assert.NoError(t, c.Sleep(context.Background(), -time.Second))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, c.Sleep(ctx, 0), context.Canceled)
	start := time.Now()
	assert.ErrorIs(t, c.Sleep(ctx, time.Hour), context.Canceled)
	assert.Less(t, time.Since(start), time.Second)
}
