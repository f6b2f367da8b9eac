package mcpcore

import (
	"context"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// WithThrashGuard refuses a tool call that keeps failing the same way:
// when the same caller (as [Core.Once] scopes keys) calls the same tool
// with the same canonical arguments, and the call failed twice in a row
// with the same non-retryable code within 10 minutes (the defaults;
// idempotency.WithThrashAfter and idempotency.WithThrashWindow change
// them), the next identical call is not run and gets REPEATED_FAILURE
// (see idempotency.ThrashCalls). The counts live in counter (nil: one
// in-process idempotency.MemoryStore, made when the option is, shared by
// every core configured with this option value); pass a shared store
// (idempotency/redisstore) to every replica. A store that is down lets
// calls through, logged. Default: none.
//
// What counts is how a call that ran ended, as the adapter tells
// [Core.Keep]: a failure whose toolerr error is not retryable counts; a
// retryable one, a cancellation, an error result the handler built itself
// (its code is unknown), a replayed result and a refusal do not; a
// success clears the run.
func WithThrashGuard(counter idempotency.FailureCounter, opts ...idempotency.Option) Option {
	if counter == nil {
		counter = idempotency.NewMemoryStore()
	}
	opts = append([]idempotency.Option(nil), opts...)
	return func(c *Core) {
		c.thrashCounter, c.thrashOpts = counter, opts
	}
}

// newThrash builds the core's idempotency.ThrashCalls, when configured:
// its errors from the core's registry, its log lines to the core's
// logger, unless the options say otherwise.
func (c *Core) newThrash() {
	if c.thrashCounter == nil {
		return
	}
	opts := append([]idempotency.Option{idempotency.WithRegistry(c.Registry), idempotency.WithLogger(c.Logger)}, c.thrashOpts...)
	c.thrash = idempotency.NewThrashCalls(c.thrashCounter, opts...)
}

// Guards reports whether the core runs calls through [Core.Once]: with
// [WithIdempotency] or [WithThrashGuard]. An adapter installs its call
// middleware then.
func (c *Core) Guards() bool { return c.once != nil || c.thrash != nil }

// thrashKey is the context key of a call's [thrashOutcome].
type thrashKey struct{}

// thrashOutcome is how a call the thrash guard let run ended, as
// [Core.Keep] learns it.
type thrashOutcome struct {
	noted bool
	err   *toolerr.Error // nil: a success, or a failure with no code
}

// noteOutcome notes in ctx's thrashOutcome how the call ended: a success,
// or the toolerr error of a failure. A failure without one (an error
// result the handler built) is noted as having run but counts for
// nothing.
func noteOutcome(ctx context.Context, isError bool, cause error) {
	o, ok := ctx.Value(thrashKey{}).(*thrashOutcome)
	if !ok {
		return
	}
	o.noted, o.err = true, nil
	if !isError {
		return
	}
	if e, ok := toolerr.From(cause); ok {
		o.err = e
		return
	}
	o.noted = false // a failure of unknown code neither counts nor clears
}

// guardThrash runs call through the thrash guard, then [Core.runOnce].
func (c *Core) guardThrash(ctx context.Context, call OnceCall, run func(ctx context.Context) ([]byte, bool)) (result []byte, replayed bool, f *Failure) {
	tc := idempotency.ToolCall{Principal: principal(ctx, call), Tool: call.Tool, Arguments: call.Arguments}
	refusal := c.thrash.Do(ctx, tc, func(ctx context.Context) (*toolerr.Error, bool) {
		o := &thrashOutcome{}
		result, replayed, f = c.runOnce(context.WithValue(ctx, thrashKey{}, o), call, run)
		return o.err, o.noted && !replayed
	})
	if refusal != nil {
		return nil, false, c.Rejected(ctx, call.Call, refusal)
	}
	return result, replayed, f
}
