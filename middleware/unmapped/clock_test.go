package unmapped

import (
	"sync/atomic"
	"time"
)

// testClock is a clock the tests move by hand; safe for concurrent use.
type testClock struct{ nanos atomic.Int64 }

// newTestClock returns a clock at a fixed instant.
func newTestClock() *testClock {
	c := &testClock{}
	c.nanos.Store(time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC).UnixNano())
	return c
}

// Now returns the clock's time.
func (c *testClock) Now() time.Time { return time.Unix(0, c.nanos.Load()).UTC() }

// Advance moves the clock forward by d.
func (c *testClock) Advance(d time.Duration) { c.nanos.Add(int64(d)) }
