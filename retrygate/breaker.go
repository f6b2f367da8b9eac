package retrygate

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr"
)

// Breakers holds one circuit breaker per downstream host, created on first
// use, at most 4096 of them. A failure is a transient or upstream failure
// (network errors are classified as those); a response that shows the host
// answering on purpose (validation, not_found, auth, permission, policy,
// conflict, precondition) is a success; cancellations, rate limits and
// internal errors count as neither. A breaker opens when failures reach
// FailureRatio of the outcomes within Window, once there are MinRequests of
// them (see [BreakerSettings]); it then rejects calls with CIRCUIT_OPEN until
// OpenFor has passed, and lets HalfOpenRequests trial calls decide whether
// it closes.
//
// Each change of a breaker's state is counted
// (toolerr.retrygate.breaker.transitions, by server.address and
// toolerr.breaker.state, the new state: closed, half_open or open), and a
// gauge (toolerr.retrygate.breaker.state: 0 closed, 1 half_open, 2 open)
// reports, at each collection, the state of every host's breaker kept;
// see [BreakerSettings.MeterProvider].
//
// A Breakers is safe for concurrent use; share one among the Transports
// that call the same hosts.
type Breakers struct {
	settings    BreakerSettings
	mu          sync.RWMutex
	hosts       map[string]*hostBreaker
	transitions metric.Int64Counter // breaker_metrics.go
}

// hostBreaker is one host's breaker and the time it last opened.
type hostBreaker struct {
	cb *gobreaker.TwoStepCircuitBreaker[struct{}]
	// openedAt is the UnixNano time of the last move to open, set from
	// gobreaker's OnStateChange (under the breaker's own lock).
	openedAt atomic.Int64
	// attrs are the host's attribute sets of the breaker metrics.
	attrs hostAttrs
}

// verdict is what one attempt means for the breaker.
type verdict int

const (
	verdictSuccess verdict = iota
	verdictFailure
	verdictExcluded
)

// Sentinels handed to gobreaker: it only sees which of the three an
// attempt was.
var (
	errBreakerFailure  = errors.New("retrygate: breaker failure")
	errBreakerExcluded = errors.New("retrygate: breaker excluded")
)

// NewBreakers returns per-host breakers with s's settings, zero fields
// taking their defaults: NewBreakers(BreakerSettings{}) opens a host's
// breaker at 80 % failures over at least 20 calls in 10 s, for 5 s, then
// tries one call. Their metrics go to s.MeterProvider.
func NewBreakers(s BreakerSettings) *Breakers {
	b := &Breakers{settings: s.withDefaults(), hosts: make(map[string]*hostBreaker)}
	b.instrument(s.MeterProvider)
	return b
}

// allow asks host's breaker for one attempt. It returns the function that
// reports the attempt's verdict, or CIRCUIT_OPEN when the breaker rejects
// the attempt. A nil Breakers allows everything.
func (b *Breakers) allow(host string) (report func(verdict), rejected *toolerr.Error) {
	if b == nil {
		return func(verdict) {}, nil
	}
	hb := b.get(host)
	done, err := hb.cb.Allow()
	if err != nil {
		return nil, b.openError(host, hb, err)
	}
	return func(v verdict) {
		switch v {
		case verdictFailure:
			done(errBreakerFailure)
		case verdictExcluded:
			done(errBreakerExcluded)
		default:
			done(nil)
		}
	}, nil
}

// openError builds the CIRCUIT_OPEN error for a rejected attempt. When the
// breaker is open, RetryAfter is the time left until it half-opens; when
// it is half-open with its trial calls in flight, no delay is known and
// none is set.
func (b *Breakers) openError(host string, hb *hostBreaker, err error) *toolerr.Error {
	e := toolerr.Default().New(toolerr.CodeCircuitOpen, "").
		WithUpstream(toolerr.Upstream{Vendor: host}).
		WithCause(err)
	if errors.Is(err, gobreaker.ErrOpenState) {
		left := time.Until(time.Unix(0, hb.openedAt.Load()).Add(b.settings.OpenFor))
		e = e.WithRetryAfter(max(left, time.Millisecond))
	}
	return e
}

// get returns host's breaker, creating it on first use.
func (b *Breakers) get(host string) *hostBreaker {
	b.mu.RLock()
	hb := b.hosts[host]
	b.mu.RUnlock()
	if hb != nil {
		return hb
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if hb = b.hosts[host]; hb != nil {
		return hb
	}
	if len(b.hosts) >= maxBreakerHosts {
		b.evictLocked()
	}
	hb = b.newHostBreaker(host)
	b.hosts[host] = hb
	return hb
}

// evictLocked drops one breaker, a closed one when there is one.
func (b *Breakers) evictLocked() {
	victim := ""
	for h, hb := range b.hosts {
		victim = h
		if hb.cb.State() == gobreaker.StateClosed {
			break
		}
	}
	delete(b.hosts, victim)
}

// newHostBreaker builds host's breaker from the settings.
func (b *Breakers) newHostBreaker(host string) *hostBreaker {
	hb := &hostBreaker{attrs: newHostAttrs(host)}
	s := b.settings
	hb.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:         host,
		MaxRequests:  s.HalfOpenRequests,
		Interval:     s.Window,
		BucketPeriod: s.bucket(),
		Timeout:      s.OpenFor,
		ReadyToTrip:  s.readyToTrip,
		OnStateChange: func(_ string, _, to gobreaker.State) {
			if to == gobreaker.StateOpen {
				hb.openedAt.Store(time.Now().UnixNano())
			}
			if b.transitions != nil {
				b.transitions.Add(context.Background(), 1, hb.attrs.transitionOpts(to)...)
			}
		},
		IsSuccessful: func(err error) bool { return err == nil },
		IsExcluded:   func(err error) bool { return errors.Is(err, errBreakerExcluded) },
	})
	return hb
}

// breakerVerdict says what an attempt's outcome means for the host's
// breaker: e is the attempt's classified failure (nil: success), ctx the
// caller's context. An attempt cut short by the caller is excluded: it says
// nothing about the host.
func breakerVerdict(ctx context.Context, e *toolerr.Error) verdict {
	if e == nil {
		return verdictSuccess
	}
	if ctx.Err() != nil {
		return verdictExcluded
	}
	switch e.Category {
	case toolerr.CategoryTransient, toolerr.CategoryUpstream:
		return verdictFailure
	case toolerr.CategoryValidation, toolerr.CategoryNotFound, toolerr.CategoryAuth,
		toolerr.CategoryPermission, toolerr.CategoryPolicy, toolerr.CategoryConflict,
		toolerr.CategoryPrecondition:
		// The host answered on purpose: it is healthy.
		return verdictSuccess
	default:
		// Cancelled: says nothing about the host. Rate limit: the host is
		// up and asks us to slow down, which the retry delay honours; it
		// neither proves health nor failure. Internal: our side's fault.
		return verdictExcluded
	}
}

// breakerKey is the breaker key of a request's URL host: lower-case
// host[:port].
func breakerKey(host string) string {
	return strings.ToLower(host)
}
