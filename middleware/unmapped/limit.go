package unmapped

import (
	"strings"
	"sync"
	"time"
)

// pairKey is a vendor and status pair, the unit of the per-pair limit.
// vendor is the name as offered, cut at maxVendorKey bytes.
type pairKey struct {
	vendor string
	status int
}

// pairSlot is what the limiter remembers of a pair.
type pairSlot struct {
	key pairKey
	// last is when the pair was last sampled; zero when never.
	last time.Time
	// suppressed counts the pair's responses not sampled since then.
	suppressed int
}

// limiter decides which offered responses are sampled: at most one per
// pair and interval, and at most rate a second over all pairs (a token
// bucket of rate tokens). It remembers at most maxPairs pairs; a new pair
// beyond that makes the pair first remembered be forgotten, with the
// count of its suppressed responses. A decision takes one map lookup
// under the mutex and allocates only for a pair it has not seen.
type limiter struct {
	mu       sync.Mutex
	interval time.Duration
	rate     float64
	tokens   float64
	filled   time.Time // when tokens was last topped up
	// pairs indexes slots by pair. slots holds the remembered pairs in
	// the order they were first remembered, as a ring: slots[next] is the
	// oldest once it is full.
	pairs map[pairKey]int
	slots []pairSlot
	next  int
}

func newLimiter(interval time.Duration, rate, maxPairs int) *limiter {
	return &limiter{
		interval: interval,
		rate:     float64(rate),
		tokens:   float64(rate),
		pairs:    make(map[pairKey]int, maxPairs),
		slots:    make([]pairSlot, 0, maxPairs),
	}
}

// admit reports whether the response of vendor and status offered at now
// is sampled, and if so how many of the pair's responses were suppressed
// before it.
func (l *limiter) admit(vendor string, status int, now time.Time) (sampled bool, suppressed int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := pairKey{vendor: vendor, status: status}
	i, known := l.pairs[k]
	if known {
		if p := &l.slots[i]; !p.last.IsZero() && now.Sub(p.last) < l.interval {
			p.suppressed++
			return false, 0
		}
	} else {
		// A pair is remembered under its own copy of the name, not a
		// slice of the caller's text.
		k.vendor = strings.Clone(vendor)
		i = l.remember(k)
	}
	p := &l.slots[i]
	if !l.take(now) {
		p.suppressed++
		return false, 0
	}
	suppressed = p.suppressed
	p.last, p.suppressed = now, 0
	return true, suppressed
}

// remember makes a slot for the new pair k, forgetting the oldest pair
// when all are taken, and returns its index.
func (l *limiter) remember(k pairKey) int {
	i := len(l.slots)
	if i < cap(l.slots) {
		l.slots = append(l.slots, pairSlot{key: k})
	} else {
		i = l.next
		delete(l.pairs, l.slots[i].key)
		l.slots[i] = pairSlot{key: k}
		l.next = (i + 1) % len(l.slots)
	}
	l.pairs[k] = i
	return i
}

// take takes a token from the bucket, topping it up for the time since it
// was last topped up; false when none is left. A clock that goes back
// adds nothing.
func (l *limiter) take(now time.Time) bool {
	if elapsed := now.Sub(l.filled); elapsed > 0 {
		l.tokens = min(l.rate, l.tokens+elapsed.Seconds()*l.rate)
		l.filled = now
	}
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}

// size returns how many pairs are remembered.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.pairs)
}
