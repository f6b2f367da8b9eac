package retrygate

import (
	"math"
	"time"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/metric"
)

// BreakerSettings configures [Breakers]. A field that is zero (or, for
// FailureRatio, negative or not a number) takes its default.
//
// A breaker opens when a host fails most of the calls it answers, not on a
// short streak: a host that fails half its calls still serves the other
// half, while a breaker that opened on five failures in a row would turn it
// into a dead one. With the defaults a full outage is shed after 20 calls
// (a fifth of a second at a hundred calls a second), a host failing 10 to 50
// % of its calls stays in service, and one failing 90 % is shed like a dead
// one; see BENCHMARKS.md (TestMeasureBreakerDefaults) for the measurements.
// At a few calls a second, where a window holds little more than
// MinRequests calls, a host failing half of them may still open its breaker
// by chance, a few times an hour, for OpenFor each time.
//
// The breakers use the real clock (gobreaker reads time.Now itself); tests
// use a short OpenFor.
type BreakerSettings struct {
	// FailureRatio is the share of failures, among the calls that
	// succeeded or failed within Window, at or above which the breaker
	// opens, once there are MinRequests such calls. A value above 1 turns
	// the ratio rule off (only ConsecutiveFailures opens the breaker then).
	// Default 0.8: a host failing 50 % of its calls shows 16 failures or
	// more among 20 once in 170 tries, and less often among more calls; at
	// 0.5, as in Hystrix, it would open the breaker half the time.
	FailureRatio float64
	// MinRequests is the number of calls with an outcome within Window
	// below which the ratio rule does not open the breaker, so that a few
	// failures of a quiet client prove nothing. Default 20 (Hystrix's
	// request volume threshold).
	MinRequests uint32
	// Window is the rolling period over which the outcomes are counted, in
	// ten buckets of a tenth of it each: the counts forget one bucket at a
	// time. Default 10 s.
	Window time.Duration
	// ConsecutiveFailures, when above zero, also opens the breaker after
	// that many failures in a row within Window, whatever the ratio and
	// the number of calls. Default 0: off, because a streak of a few
	// failures is common on a host that fails part of the time.
	ConsecutiveFailures uint32
	// OpenFor is how long an open breaker rejects calls before it lets
	// trial calls through (half-open). Default 5 s (Hystrix's sleep
	// window): short, so that a host that recovered, or one that opened
	// the breaker by bad luck, is back within seconds.
	OpenFor time.Duration
	// HalfOpenRequests is the number of trial calls a half-open breaker
	// lets through, all other calls being rejected meanwhile; that many
	// successes in a row close it, one failure opens it again. Default 1:
	// one call at a time tests the host, and a host that fails a share p
	// of its calls closes the breaker with probability 1-p at each trial
	// (with n trials, (1-p)^n: a larger n keeps a partly failing host
	// shut).
	HalfOpenRequests uint32
	// MeterProvider receives the breakers' metrics: the transitions
	// counter and the state gauge, whose server.address is the host's
	// breaker key (the request URL's host[:port], lower-case), under
	// this package's import path as the instrumentation scope. A
	// Breakers does not stay alive for its gauge: the gauge stops
	// reporting it once it is unreachable. Default nil:
	// otel.GetMeterProvider(), the global provider, which records
	// nothing until an SDK is installed.
	MeterProvider metric.MeterProvider
}

// Defaults of [BreakerSettings], and the bound on the hosts tracked.
const (
	defaultFailureRatio     = 0.8
	defaultMinRequests      = 20
	defaultBreakerWindow    = 10 * time.Second
	defaultOpenFor          = 5 * time.Second
	defaultHalfOpenRequests = 1
	// breakerBuckets is the number of buckets of the rolling window.
	breakerBuckets = 10
	// maxBreakerHosts bounds the breakers a Breakers holds: at the bound,
	// a closed breaker (or, when none is closed, any one) is dropped to
	// make room for a new host.
	maxBreakerHosts = 4096
)

// withDefaults returns s with its zero or out-of-range fields set to their
// defaults.
func (s BreakerSettings) withDefaults() BreakerSettings {
	if math.IsNaN(s.FailureRatio) || s.FailureRatio <= 0 {
		s.FailureRatio = defaultFailureRatio
	}
	if s.MinRequests == 0 {
		s.MinRequests = defaultMinRequests
	}
	if s.Window <= 0 {
		s.Window = defaultBreakerWindow
	}
	if s.OpenFor <= 0 {
		s.OpenFor = defaultOpenFor
	}
	if s.HalfOpenRequests == 0 {
		s.HalfOpenRequests = defaultHalfOpenRequests
	}
	return s
}

// bucket is the length of one bucket of the rolling window, at least a
// nanosecond so that gobreaker keeps a rolling window.
func (s BreakerSettings) bucket() time.Duration {
	return max(s.Window/breakerBuckets, 1)
}

// readyToTrip reports whether counts, the outcomes of a closed breaker
// within the window, open it.
func (s BreakerSettings) readyToTrip(c gobreaker.Counts) bool {
	if s.ConsecutiveFailures > 0 && c.ConsecutiveFailures >= s.ConsecutiveFailures {
		return true
	}
	answered := uint64(c.TotalSuccesses) + uint64(c.TotalFailures)
	if answered == 0 || answered < uint64(s.MinRequests) || s.FailureRatio > 1 {
		return false
	}
	return float64(c.TotalFailures) >= s.FailureRatio*float64(answered)
}
