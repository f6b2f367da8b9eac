package idempotency

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/toolerr/toolerr"
)

// Defaults of [ThrashGuard] and [ThrashCalls].
const (
	// DefaultThrashAfter is how many failures of one call, in a row and
	// with one code, the guards let through: the next identical call is
	// refused. With 2, the third identical call is not run.
	DefaultThrashAfter = 2
	// DefaultThrashWindow is how long a run of failures counts, from its
	// first failure.
	DefaultThrashWindow = 10 * time.Minute
)

// WithThrashAfter sets how many failures of one call, in a row and with
// the same non-retryable code, [ThrashGuard] and [ThrashCalls] let
// through before they refuse the identical call with REPEATED_FAILURE.
// Default: [DefaultThrashAfter] (2: the third identical call is refused).
// Values below 1 keep the default.
func WithThrashAfter(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.thrashAfter = n
		}
	}
}

// WithThrashWindow sets how long a run of failures of one call counts,
// from its first failure: once it has passed, the identical call runs
// again. Default: [DefaultThrashWindow] (10 minutes). Values below 1 keep
// the default.
func WithThrashWindow(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.thrashWindow = d
		}
	}
}

// thrash is the logic both guards share: the refusal before a call, the
// counting after it.
type thrash struct {
	cfg     config
	counter FailureCounter
	watcher RunsWatcher // the counter's, or nil
}

// newThrash builds a thrash over counter (nil: a new MemoryStore).
func newThrash(counter FailureCounter, opts []Option) *thrash {
	if counter == nil {
		counter = NewMemoryStore()
	}
	cfg := newConfig(opts)
	return &thrash{cfg: cfg, counter: boundCounter(counter, cfg.storeTimeout), watcher: watcher(counter)}
}

// idle reports whether the counter says it holds no run of failures
// ([RunsWatcher]): no call can be refused, and none needs a lookup.
func (t *thrash) idle() bool {
	return t.watcher != nil && !t.watcher.MayHaveRuns()
}

// thrashKey is the counter's key of a call: its caller, tool and
// arguments (canonical when they are JSON).
func (t *thrash) key(principal, tool string, args []byte) string {
	return "thrash:" + storeKey(t.cfg.digestKey, principal, tool, string(args))
}

// before returns the call's run of failures, and the refusal when the
// run is long enough. ok is false when the store could not say (the call
// runs, unguarded, with a log line).
func (t *thrash) before(ctx context.Context, key, tool string) (run Failures, refusal *toolerr.Error, ok bool) {
	run, err := t.counter.Failures(ctx, key)
	if err != nil {
		t.cfg.logger.Warn("toolerr: thrash guard skipped: store unavailable", slog.Any("error", err))
		return Failures{}, nil, false
	}
	if run.Count >= t.cfg.thrashAfter {
		return run, t.refusal(run, tool), true
	}
	return run, nil, true
}

// after counts the call's failure e, or clears its run when it succeeded
// (e nil) and had one. A retryable failure is left to the retry logic and
// counts for nothing, as does a cancellation.
func (t *thrash) after(ctx context.Context, key string, run Failures, e *toolerr.Error) {
	if e == nil && run.Count == 0 {
		return // a success with no run to clear
	}
	ctx = context.WithoutCancel(ctx) // the count outlives a caller that left
	switch {
	case e == nil:
		if run.Count > 0 {
			if err := t.counter.ClearFailures(ctx, key); err != nil {
				t.cfg.logger.Warn("toolerr: thrash guard could not clear a call's failures", slog.Any("error", err))
			}
		}
	case !counts(e):
	default:
		if _, err := t.counter.AddFailure(ctx, key, e.Code, t.cfg.thrashWindow); err != nil {
			t.cfg.logger.Warn("toolerr: thrash guard could not count a failure", slog.Any("error", err))
		}
	}
}

// counts reports whether a failure with e counts towards a refusal: not
// when it may pass on retry, nor a cancellation, nor a refusal of the
// guard itself.
func counts(e *toolerr.Error) bool {
	return !e.Retryable && e.Code != "" && e.Code != toolerr.CodeCancelled && e.Code != toolerr.CodeRepeatedFailure
}

// refusal is the REPEATED_FAILURE of a call whose run of failures is run.
// Its details: repeated_code, failures, window_ms, and first_failure_at.
func (t *thrash) refusal(run Failures, tool string) *toolerr.Error {
	details := map[string]any{
		"repeated_code": run.Code,
		"failures":      run.Count,
		"window_ms":     t.cfg.thrashWindow.Milliseconds(),
	}
	if !run.Since.IsZero() {
		details["first_failure_at"] = run.Since.UTC().Format(time.RFC3339Nano)
	}
	e := t.cfg.registry.New(toolerr.CodeRepeatedFailure,
		"This exact call failed "+strconv.Itoa(run.Count)+" times with "+run.Code+
			"; do not repeat it: change the arguments, use a fallback tool if one is offered, or ask the user.").
		WithDetails(details)
	if tool != "" {
		e = e.WithTool(tool)
	}
	return e
}

// ThrashCalls refuses a tool call that keeps failing the same way (the
// thrash guard), for transports where one HTTP request is not one call,
// as [ToolCalls] serves idempotency there: the MCP adapters run their
// calls through it. It has the semantics of [ThrashGuard] at the level of
// a call. Safe for concurrent use.
type ThrashCalls struct {
	t *thrash
}

// NewThrashCalls returns a ThrashCalls over counter; nil means a new
// [MemoryStore], which serves one replica only. Options that apply:
// [WithThrashAfter], [WithThrashWindow], [WithStoreTimeout],
// [SharedAnonymousScope], [WithFingerprintKey], [WithRegistry] and
// [WithLogger].
func NewThrashCalls(counter FailureCounter, opts ...Option) *ThrashCalls {
	return &ThrashCalls{t: newThrash(counter, opts)}
}

// Do runs run for call unless the same call (principal, tool and
// canonical arguments; call.Key plays no part) failed [WithThrashAfter]
// times in a row with the same non-retryable code within the window
// ([WithThrashWindow]): then run is not called and Do returns the
// refusal, REPEATED_FAILURE (policy, not retryable) with the tool set and
// details repeated_code (the code that kept failing), failures (how many
// times) and window_ms.
//
// run reports how the call ended: nil for a success, else the
// *toolerr.Error of its failure; ran false when the call did not run
// after all (its result was replayed, say), which neither counts nor
// clears. A failure that is not retryable counts (a different code from
// the run's starts a new run of 1); a retryable one, a cancellation and a
// refusal do not; a success clears the run.
//
// Anonymous calls (no principal) are not guarded unless
// [SharedAnonymousScope]. A store that cannot be reached within
// [WithStoreTimeout] lets the call run, with a log line: the guard never
// blocks a tool.
func (tc *ThrashCalls) Do(ctx context.Context, call ToolCall, run func(ctx context.Context) (failure *toolerr.Error, ran bool)) (refusal *toolerr.Error) {
	t := tc.t
	if call.Principal == "" && !t.cfg.sharedAnon {
		run(ctx)
		return nil
	}
	if t.idle() { // no run anywhere: nothing to look up, a success clears nothing
		if failure, ran := run(ctx); ran && failure != nil {
			t.after(ctx, t.key(call.Principal, call.Tool, canonicalArguments(call.Arguments)), Failures{}, failure)
		}
		return nil
	}
	key := t.key(call.Principal, call.Tool, canonicalArguments(call.Arguments))
	prior, refusal, ok := t.before(ctx, key, call.Tool)
	if refusal != nil {
		return refusal
	}
	failure, ran := run(ctx)
	if ok && ran {
		t.after(ctx, key, prior, failure)
	}
	return nil
}
