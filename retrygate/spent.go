package retrygate

import (
	"math"
	"sync"
	"time"
)

// spentGrace is how long past the delay it advertised a Transport keeps
// sending a host's calls once: the agent's own retry, made after that
// delay, must find the host still marked (see [Transport]).
const spentGrace = 30 * time.Second

// spentHosts remembers the hosts whose last call spent all its retries on
// a retryable failure. Until a call to the host succeeds, or the mark
// expires, the Transport sends each call to it once: the agent was told
// (retry_policy.max_attempts 2) that it may call again once, and that call
// must not start a second round of retries. At most maxBreakerHosts hosts
// are held. It is safe for concurrent use.
type spentHosts struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// spent reports whether host is marked at now.
func (s *spentHosts) spent(host string, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	until, ok := s.until[host]
	if ok && !now.Before(until) {
		delete(s.until, host)
		return false
	}
	return ok
}

// mark marks host, at now, until the given time.
func (s *spentHosts) mark(host string, now, until time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.until == nil {
		s.until = make(map[string]time.Time)
	}
	if _, ok := s.until[host]; !ok && len(s.until) >= maxBreakerHosts {
		s.evictLocked(now)
	}
	s.until[host] = until
}

// clear drops host's mark: a call to it succeeded, or it answered on
// purpose.
func (s *spentHosts) clear(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.until, host)
}

// evictLocked makes room: it drops every mark expired at now, and one
// arbitrary mark when none is.
func (s *spentHosts) evictLocked(now time.Time) {
	for h, until := range s.until {
		if !now.Before(until) {
			delete(s.until, h)
		}
	}
	if len(s.until) < maxBreakerHosts {
		return
	}
	for h := range s.until {
		delete(s.until, h)
		return
	}
}

// nextInterval is the computed wait the backoff of p would use after
// attempt n (from 1), without jitter: InitialInterval × Multiplier^(n-1),
// capped at MaxInterval. p is normalized.
func nextInterval(p Policy, n int) time.Duration {
	d := float64(p.InitialInterval) * math.Pow(p.Multiplier, float64(max(n-1, 0)))
	if p.MaxInterval > 0 && d > float64(p.MaxInterval) {
		return p.MaxInterval
	}
	if d >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d)
}
