package retrygate

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr/classify"
)

// Policy says which failures are retried, how often and how far apart.
// The zero Policy is not usable: start from [DefaultPolicy].
type Policy struct {
	// MaxAttempts is the number of attempts in total, the first included.
	// Default 3.
	MaxAttempts int
	// InitialInterval is the first computed wait. Default 200 ms.
	InitialInterval time.Duration
	// Multiplier grows the computed wait after each retry. Default 2.
	Multiplier float64
	// MaxInterval caps a computed wait. Default 10 s.
	MaxInterval time.Duration
	// RandomizationFactor is the jitter of a computed wait, 0 to 1. Default
	// 1 (full jitter: a wait is drawn from (0, 2×interval]).
	RandomizationFactor float64
	// MaxServerDelay caps a delay the server asked for (retry_after_ms,
	// Retry-After), which replaces the computed wait. Default 60 s.
	MaxServerDelay time.Duration
	// RetryInternal retries INTERNAL_ERROR (category internal) too, "with
	// caution". Default false.
	RetryInternal bool
	// Budget is the retry budget shared by the calls that use it: by every
	// call to Do given this Policy (or a copy of it) and every Transport
	// built with it. Default: DefaultPolicy sets a new
	// NewBudget(BudgetSettings{}) each time it is called, so build the
	// Policy once per client, not once per call. When nil, a Transport
	// keeps a budget of its own with the default settings for all its
	// calls; Do, which keeps nothing between calls, has none to fall back
	// on and does not limit retries.
	Budget *Budget
	// NoBudget turns the retry budget off, whatever Budget holds: retries
	// are bounded only by MaxAttempts and the deadline, and a sustained
	// outage receives up to MaxAttempts times its load. Default false.
	NoBudget bool
	// Clock, when set, replaces the real clock and sleep (tests). Default
	// nil: time.Now and a timer that honours the context.
	Clock Clock
	// OnRetry, when set, is called before each wait.
	OnRetry func(RetryEvent)
	// OnGiveUp, when set, is called once when Do returns a failure.
	OnGiveUp func(GiveUpEvent)
	// Idempotent says that op, the operation Do repeats, may run twice
	// without harm (a read, or a write that carries an idempotency key).
	// A plain Go error that may have taken effect (a timeout, a gRPC
	// UNAVAILABLE, a connection that broke mid-call) is retried only
	// when it is set; one that shows nothing ran (a refused connection, a
	// rolled-back serialization failure) is retried either way. Default
	// false. A *toolerr.Error keeps its own Retryable; the Transport reads
	// the request's method and idempotency key instead.
	Idempotent bool
	// Classifier classifies the plain Go errors op returns in Do (see
	// [Policy.WithErrorMappers]). Default nil: a classifier with the
	// built-in mappers (database/sql, SQLSTATE, AWS smithy, Redis), the
	// network and context rules and the built-in translators' code tables
	// (the classifier of translate.NewSet(nil)). A Transport
	// classifies its attempts' errors with its translate Set's classifier
	// instead (see [WithErrorMappers]).
	Classifier *classify.Classifier

	// meters is the provider given to WithMeterProvider (nil: the
	// global one), and metrics the instruments built from it (nil: built
	// by each call to Do that retries).
	meters  metric.MeterProvider
	metrics *retryMetrics
}

// WithErrorMappers returns a copy of p whose Classifier has ms besides the
// built-in mappers, and the built-in translators' code tables (the
// classifier of translate.NewSet(nil, translate.WithErrorMappers(ms...))),
// so that Do retries the typed errors of an SDK, a gRPC call or a driver
// that op returns unwrapped:
//
//	policy := retrygate.DefaultPolicy().WithErrorMappers(grpcerr.Mapper())
//	policy.Idempotent = true // the operation is a read
//	err := retrygate.Do(ctx, policy, func(ctx context.Context) error {
//		_, err := ledger.GetBalance(ctx, req)
//		return err
//	})
//
// Call it once, where the policy is built: it builds a classifier.
func (p Policy) WithErrorMappers(ms ...classify.ErrorMapper) Policy {
	p.Classifier = classifierWith(ms...)
	return p
}

// Clock is the time source of a Policy.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits d or until ctx is done, returning ctx.Err() then.
	Sleep(ctx context.Context, d time.Duration) error
}

// RetryEvent describes a retry about to happen.
type RetryEvent struct {
	// Attempt is the number of the attempt that failed, from 1.
	Attempt int
	// Delay is the wait before the next attempt.
	Delay time.Duration
	// Err is the failed attempt's error.
	Err error
}

// GiveUpEvent describes the end of a failed call.
type GiveUpEvent struct {
	// Attempts is the number of attempts made.
	Attempts int
	// Err is the error Do returns.
	Err error
	// Reason says why: "not_retryable", "attempts", "deadline", "budget",
	// "cancelled".
	Reason string
}
