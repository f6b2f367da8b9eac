package retrygate

import (
	"context"
	"errors"
	"math"

	"github.com/cenkalti/backoff/v4"

	"github.com/toolerr/toolerr"
)

// Reasons of a GiveUpEvent.
const (
	reasonNotRetryable = "not_retryable"
	reasonAttempts     = "attempts"
	reasonDeadline     = "deadline"
	reasonBudget       = "budget"
	reasonCancelled    = "cancelled"
)

// Do calls op until it succeeds or a retry is not allowed, and returns nil
// or an *Error holding the last failure and the number of attempts.
//
// Do retries a failure that classifies as retryable: it must be Retryable
// and of category rate_limit or transient, or of category internal when
// p.RetryInternal is set (whatever its Retryable flag, since the built-in
// INTERNAL_ERROR is not marked retryable). A *toolerr.Error in op's error
// chain is taken as it is. A plain Go error is classified by p.Classifier
// (default: the built-in mappers and the network and context rules), as a
// call that is not idempotent unless p.Idempotent is set: a refused
// connection, a Postgres serialization failure or a DynamoDB throttle is
// retried, a timeout or a gRPC UNAVAILABLE only for an idempotent op. An
// error no rule knows (errors.New("boom")) ends the call at once, as does
// a context error of op's own. Do returns op's error as it was, wrapped in
// an *Error; the classification only decides whether to retry and how
// long to wait (a gRPC RetryInfo's delay counts as the server's).
//
// A failure that says its server already retried the downstream
// (upstream.attempts, which retrygate.Transport and translate report) also
// caps the attempts at its retry_policy.max_attempts, so that the caller's
// retries do not multiply the server's: with the Transport's defaults on
// the server and Do's on the caller, a vendor that is down receives at
// most 4 calls per task (see [Transport]).
//
// Between attempts Do waits. A RetryAfter above zero on the failure (the
// server's retry_after_ms or Retry-After) is the wait, capped at
// p.MaxServerDelay; otherwise the wait is the next interval of an
// exponential backoff (github.com/cenkalti/backoff/v4) built from p's
// InitialInterval, Multiplier, MaxInterval and RandomizationFactor, fresh
// for each call to Do and timed by p.Clock. The backoff advances on every
// retry, server delay or not. Do never waits into the context's deadline: when
// now plus the wait reaches it, Do returns the failure at once, its
// retry_after_ms untouched, for the caller to schedule. A context done during
// a wait ends the wait at once; Do then returns the last failure, not the
// context's error.
//
// With p.Budget set (DefaultPolicy sets one) and p.NoBudget false, each
// retry (never the first attempt) first takes a token; when none is left Do
// returns RETRY_BUDGET_EXHAUSTED whose Go cause is the last failure. A
// success on the first attempt refunds the budget. A nil p.Budget does not
// limit retries in Do: it keeps no state between calls to fall back on.
//
// p.OnRetry is called before each wait, p.OnGiveUp once before Do returns a
// failure, both on the calling goroutine. Each retry, and each retry the
// budget refused, is counted (see [Policy.WithMeterProvider]).
//
// Out-of-range fields do not panic: MaxAttempts below 1 means one attempt,
// MaxServerDelay of zero or less means 60 s, negative intervals mean no
// wait, a Multiplier below 1 means 1 and RandomizationFactor is clamped to
// [0, 1]. A nil op fails with INTERNAL_ERROR after zero attempts; a panic in
// op is not recovered.
func Do(ctx context.Context, p Policy, op func(ctx context.Context) error) error {
	return do(ctx, p, op, callMetrics{m: p.metrics})
}

// do is Do, counting the call's retries in m.
func do(ctx context.Context, p Policy, op func(ctx context.Context) error, m callMetrics) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if op == nil {
		err := &Error{Err: toolerr.Default().New(toolerr.CodeInternal, "").
			WithCause(errors.New("retrygate: Do called with a nil operation"))}
		giveUp(p, err, reasonNotRetryable)
		return err
	}
	p = normalize(p)
	clk := clockOf(p)
	bo := newBackOff(p, clk)

	for attempt := 1; ; attempt++ {
		err := op(ctx)
		if err == nil {
			if attempt == 1 {
				p.Budget.Success()
			}
			return nil
		}
		te, retry := retryable(ctx, p, err)
		if !retry {
			return fail(p, attempt, err, reasonNotRetryable)
		}
		if attempt >= p.MaxAttempts || attempt >= handedOffAttempts(te) {
			return fail(p, attempt, err, reasonAttempts)
		}
		if ctx.Err() != nil {
			return fail(p, attempt, err, ctxReason(ctx))
		}
		wait := max(bo.NextBackOff(), 0)
		if te.RetryAfter > 0 {
			wait = min(te.RetryAfter, p.MaxServerDelay)
		}
		if dl, ok := ctx.Deadline(); ok && !clk.Now().Add(wait).Before(dl) {
			return fail(p, attempt, err, reasonDeadline)
		}
		if !p.Budget.TryRetry() {
			m.of().budgetRefused(ctx, m.host)
			return fail(p, attempt, budgetExhausted(te, err), reasonBudget)
		}
		if p.OnRetry != nil {
			p.OnRetry(RetryEvent{Attempt: attempt, Delay: wait, Err: err})
		}
		if clk.Sleep(ctx, wait) != nil || ctx.Err() != nil {
			return fail(p, attempt, err, ctxReason(ctx))
		}
		m.of().retried(ctx, m.host, te.Code)
	}
}

// handedOffAttempts is the most attempts worth making after a failure
// whose server already retried its downstream (upstream.attempts set):
// its retry_policy.max_attempts, which counts the server's retries in. It
// is unbounded for any other failure.
func handedOffAttempts(te *toolerr.Error) int {
	if u, p := te.Upstream, te.RetryPolicy; u != nil && u.Attempts > 0 && p != nil && p.MaxAttempts > 0 {
		return p.MaxAttempts
	}
	return math.MaxInt
}

// retryable reports whether err may be retried under p, with the
// *toolerr.Error that decided it.
func retryable(ctx context.Context, p Policy, err error) (*toolerr.Error, bool) {
	te, ok := toolerr.From(err)
	if !ok {
		if te, ok = classifyPlain(ctx, p, err); !ok {
			return nil, false
		}
	}
	switch te.Category {
	case toolerr.CategoryRateLimit, toolerr.CategoryTransient:
		return te, te.Retryable
	case toolerr.CategoryInternal:
		// Deliberate: INTERNAL_ERROR is registered as not retryable, and the
		// option exists to retry it anyway, "with caution".
		return te, p.RetryInternal
	default:
		return te, false
	}
}

// budgetExhausted builds RETRY_BUDGET_EXHAUSTED with last as its Go cause and
// the downstream it was calling, when known.
func budgetExhausted(te *toolerr.Error, last error) error {
	e := toolerr.Default().New(toolerr.CodeRetryBudgetExhausted,
		"Retries are paused because too many calls to this service are failing.")
	if te.Upstream != nil {
		e = e.WithUpstream(*te.Upstream)
	}
	if te.Tool != "" {
		e = e.WithTool(te.Tool)
	}
	return e.WithCause(last)
}

// fail wraps err with the attempt count, reports it to OnGiveUp and returns it.
func fail(p Policy, attempts int, err error, reason string) error {
	out := &Error{Attempts: attempts, Err: err}
	giveUp(p, out, reason)
	return out
}

// giveUp calls p.OnGiveUp, when set.
func giveUp(p Policy, err *Error, reason string) {
	if p.OnGiveUp != nil {
		p.OnGiveUp(GiveUpEvent{Attempts: err.Attempts, Err: err, Reason: reason})
	}
}

// ctxReason names why a done context ended the call.
func ctxReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return reasonDeadline
	}
	return reasonCancelled
}

// normalize brings out-of-range fields of p into range (see Do) and drops
// the budget of a policy that opts out of it.
func normalize(p Policy) Policy {
	if p.NoBudget {
		p.Budget = nil
	}
	p.MaxAttempts = max(p.MaxAttempts, 1)
	if p.MaxServerDelay <= 0 {
		p.MaxServerDelay = defaultMaxServerDelay
	}
	p.InitialInterval = max(p.InitialInterval, 0)
	p.MaxInterval = max(p.MaxInterval, 0)
	if math.IsNaN(p.Multiplier) || p.Multiplier < 1 {
		p.Multiplier = 1
	}
	if math.IsNaN(p.RandomizationFactor) || p.RandomizationFactor < 0 {
		p.RandomizationFactor = 0
	}
	p.RandomizationFactor = min(p.RandomizationFactor, 1)
	return p
}

// newBackOff returns the computed-wait schedule of one call to Do.
func newBackOff(p Policy, clk Clock) *backoff.ExponentialBackOff {
	return backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(p.InitialInterval),
		backoff.WithMultiplier(p.Multiplier),
		backoff.WithMaxInterval(p.MaxInterval),
		backoff.WithRandomizationFactor(p.RandomizationFactor),
		backoff.WithMaxElapsedTime(0),
		backoff.WithClockProvider(clk),
	)
}

// A Clock times the backoff too.
var _ backoff.Clock = Clock(nil)
