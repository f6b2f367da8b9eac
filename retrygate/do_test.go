package retrygate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// coreErr builds a built-in error of code.
func coreErr(code string) *toolerr.Error { return toolerr.Default().New(code, "") }

// coreFailing returns an op that always fails with err, and its call counter.
func coreFailing(err error) (func(context.Context) error, *int) {
	n := 0
	return func(context.Context) error { n++; return err }, &n
}

// corePolicy is DefaultPolicy on a fake clock, recording the give-up reason.
func corePolicy(clk Clock, reason *string) Policy {
	p := DefaultPolicy()
	p.Clock = clk
	p.OnGiveUp = func(ev GiveUpEvent) { *reason = ev.Reason }
	return p
}

func TestDoClassification(t *testing.T) {
	tests := []struct {
		name          string
		err           error
		retryInternal bool
		wantAttempts  int
		wantReason    string
	}{
		{"rate limited", coreErr(toolerr.CodeRateLimited), false, 3, "attempts"},
		{"transient unavailable", coreErr(toolerr.CodeUpstreamUnavailable), false, 3, "attempts"},
		{"transient timeout", coreErr(toolerr.CodeUpstreamTimeout), false, 3, "attempts"},
		{"wrapped transient", fmt.Errorf("call: %w", coreErr(toolerr.CodeUpstreamTimeout)), false, 3, "attempts"},
		{"circuit open", coreErr(toolerr.CodeCircuitOpen), false, 3, "attempts"},
		{"validation", coreErr(toolerr.CodeValidationFailed), false, 1, "not_retryable"},
		{"not found", coreErr(toolerr.CodeNotFound), false, 1, "not_retryable"},
		{"auth", coreErr(toolerr.CodeUnauthenticated), false, 1, "not_retryable"},
		{"permission", coreErr(toolerr.CodePermissionDenied), false, 1, "not_retryable"},
		{"policy", coreErr(toolerr.CodePolicyBlocked), false, 1, "not_retryable"},
		{"precondition", coreErr(toolerr.CodePreconditionFailed), false, 1, "not_retryable"},
		{"conflict", coreErr(toolerr.CodeConflict), false, 1, "not_retryable"},
		{"quota (429 but not retryable)", coreErr(toolerr.CodeQuotaExhausted), false, 1, "not_retryable"},
		{"upstream unclassified", coreErr(toolerr.CodeUpstreamUnclassified), false, 1, "not_retryable"},
		{"cancelled", coreErr(toolerr.CodeCancelled), false, 1, "not_retryable"},
		{"internal without option", coreErr(toolerr.CodeInternal), false, 1, "not_retryable"},
		{"internal with option", coreErr(toolerr.CodeInternal), true, 3, "attempts"},
		{"validation with internal option", coreErr(toolerr.CodeValidationFailed), true, 1, "not_retryable"},
		{"transient marked not retryable", coreErr(toolerr.CodeUpstreamUnavailable).WithRetryable(false), false, 1, "not_retryable"},
		{"plain Go error", errors.New("connection reset"), false, 1, "not_retryable"},
		{"context error", context.DeadlineExceeded, false, 1, "not_retryable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newRecClock()
			var reason string
			p := corePolicy(clk, &reason)
			p.RetryInternal = tt.retryInternal
			op, calls := coreFailing(tt.err)

			err := Do(context.Background(), p, op)

			require.Error(t, err)
			assert.Equal(t, tt.wantAttempts, *calls)
			assert.Equal(t, tt.wantAttempts, Attempts(err))
			assert.Len(t, clk.Sleeps(), tt.wantAttempts-1)
			assert.Equal(t, tt.wantReason, reason)
			var re *Error
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.wantAttempts, re.Attempts)
			assert.Equal(t, tt.err, re.Err)
			assert.ErrorIs(t, err, tt.err)
		})
	}
}

func TestDoSucceeds(t *testing.T) {
	clk := newRecClock()
	calls := 0
	p := DefaultPolicy()
	p.Clock = clk
	p.OnGiveUp = func(GiveUpEvent) { t.Error("OnGiveUp called on success") }
	err := Do(context.Background(), p, func(context.Context) error {
		calls++
		if calls < 3 {
			return coreErr(toolerr.CodeUpstreamUnavailable)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 3, calls)
	assert.Len(t, clk.Sleeps(), 2)
}

func TestDoBackoffGrowsWithoutJitter(t *testing.T) {
	clk := newRecClock()
	p := Policy{
		MaxAttempts: 7, InitialInterval: 100 * time.Millisecond, Multiplier: 2,
		MaxInterval: time.Second, RandomizationFactor: 0, Clock: clk,
	}
	op, _ := coreFailing(coreErr(toolerr.CodeUpstreamTimeout))
	require.Error(t, Do(context.Background(), p, op))
	assert.Equal(t, []time.Duration{
		100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond,
		800 * time.Millisecond, time.Second, time.Second,
	}, clk.Sleeps())
}

func TestDoBackoffJitterBounds(t *testing.T) {
	tests := []struct {
		name       string
		factor     float64
		multiplier float64
		increasing bool // the jitter ranges do not overlap
	}{
		{"full jitter (default)", 1, 2, false},
		{"half jitter", 0.5, 2, false},
		{"quarter jitter, ranges apart", 0.25, 3, true},
	}
	const initial = 100 * time.Millisecond
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			firsts := map[time.Duration]bool{}
			for range 200 {
				clk := newRecClock()
				p := Policy{
					MaxAttempts: 5, InitialInterval: initial, Multiplier: tt.multiplier,
					MaxInterval: time.Minute, RandomizationFactor: tt.factor, Clock: clk,
				}
				op, _ := coreFailing(coreErr(toolerr.CodeUpstreamUnavailable))
				require.Error(t, Do(context.Background(), p, op))
				sleeps := clk.Sleeps()
				require.Len(t, sleeps, 4)
				firsts[sleeps[0]] = true
				for i, d := range sleeps {
					base := float64(initial) * math.Pow(tt.multiplier, float64(i))
					lo := time.Duration(base * (1 - tt.factor))
					hi := time.Duration(base*(1+tt.factor)) + 1
					assert.GreaterOrEqual(t, d, lo, "wait %d", i)
					assert.LessOrEqual(t, d, hi, "wait %d", i)
					if tt.increasing && i > 0 {
						assert.Greater(t, d, sleeps[i-1], "wait %d", i)
					}
				}
			}
			assert.Greater(t, len(firsts), 1, "the jitter is applied")
		})
	}
}

func TestDoServerDelay(t *testing.T) {
	tests := []struct {
		name      string
		after     time.Duration
		maxServer time.Duration
		want      time.Duration
	}{
		{"429 with Retry-After 1s waits exactly 1s", time.Second, time.Minute, time.Second},
		{"above the cap is capped", 5 * time.Minute, 30 * time.Second, 30 * time.Second},
		{"zero cap means the 60s default", 5 * time.Minute, 0, time.Minute},
		{"no server delay uses the computed one", 0, time.Minute, 200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newRecClock()
			p := DefaultPolicy()
			p.Clock = clk
			p.RandomizationFactor = 0
			p.MaxAttempts = 2
			p.MaxServerDelay = tt.maxServer
			op, _ := coreFailing(coreErr(toolerr.CodeRateLimited).WithRetryAfter(tt.after))
			require.Error(t, Do(context.Background(), p, op))
			assert.Equal(t, []time.Duration{tt.want}, clk.Sleeps())
		})
	}
}

func TestDoDeadline(t *testing.T) {
	tests := []struct {
		name         string
		retryAfter   time.Duration
		initial      time.Duration
		deadlineIn   time.Duration
		wantSleeps   []time.Duration
		wantAttempts int
	}{
		{"server delay past the deadline", 45 * time.Second, 0, 30 * time.Second, nil, 1},
		{"server delay reaching the deadline", 30 * time.Second, 0, 30 * time.Second, nil, 1},
		{"second computed wait past the deadline", 0, 10 * time.Second, 25 * time.Second, []time.Duration{10 * time.Second}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newRecClock()
			ctx, cancel := context.WithDeadline(context.Background(), clk.Now().Add(tt.deadlineIn))
			defer cancel()
			var reason string
			p := corePolicy(clk, &reason)
			p.MaxAttempts = 5
			p.RandomizationFactor = 0
			p.InitialInterval = tt.initial
			p.MaxInterval = time.Minute
			p.MaxServerDelay = 10 * time.Minute
			last := coreErr(toolerr.CodeRateLimited).WithRetryAfter(tt.retryAfter)
			op, _ := coreFailing(last)

			start := time.Now()
			err := Do(ctx, p, op)

			assert.Less(t, time.Since(start), 5*time.Second)
			assert.Equal(t, tt.wantSleeps, clk.Sleeps())
			assert.Equal(t, tt.wantAttempts, Attempts(err))
			assert.Equal(t, "deadline", reason)
			te, ok := toolerr.From(err)
			require.True(t, ok)
			assert.Equal(t, tt.retryAfter, te.RetryAfter, "retry_after_ms intact")
		})
	}
}

func TestDoCancelDuringWait(t *testing.T) {
	t.Run("real clock", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var reason string
		p := DefaultPolicy()
		p.OnGiveUp = func(ev GiveUpEvent) { reason = ev.Reason }
		p.OnRetry = func(RetryEvent) { time.AfterFunc(20*time.Millisecond, cancel) }
		last := coreErr(toolerr.CodeRateLimited).WithRetryAfter(30 * time.Second)
		op, calls := coreFailing(last)

		start := time.Now()
		err := Do(ctx, p, op)

		assert.Less(t, time.Since(start), 5*time.Second)
		assert.Equal(t, 1, *calls)
		assert.Equal(t, 1, Attempts(err))
		assert.Equal(t, "cancelled", reason)
		var re *Error
		require.ErrorAs(t, err, &re)
		assert.Same(t, last, re.Err)
	})
	t.Run("fake clock", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clk := newRecClock()
		var reason string
		p := corePolicy(clk, &reason)
		p.OnRetry = func(RetryEvent) { cancel() }
		op, calls := coreFailing(coreErr(toolerr.CodeUpstreamUnavailable))
		err := Do(ctx, p, op)
		assert.Equal(t, 1, *calls)
		assert.Empty(t, clk.Sleeps())
		assert.Equal(t, "cancelled", reason)
		assert.True(t, toolerr.HasCode(err, toolerr.CodeUpstreamUnavailable))
	})
	t.Run("context done before a retry", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var reason string
		p := corePolicy(newRecClock(), &reason)
		err := Do(ctx, p, func(context.Context) error {
			cancel()
			return coreErr(toolerr.CodeUpstreamUnavailable)
		})
		assert.Equal(t, 1, Attempts(err))
		assert.Equal(t, "cancelled", reason)
	})
}

func TestDoBudget(t *testing.T) {
	b := NewBudget(BudgetSettings{})
	clk := newRecClock()
	var reason string
	p := corePolicy(clk, &reason)
	p.Budget = b
	up := toolerr.Upstream{Vendor: "example", Status: 503}
	outage := coreErr(toolerr.CodeUpstreamUnavailable).WithUpstream(up)
	op, calls := coreFailing(outage)

	// A sustained outage: the first five calls spend the ten tokens on two
	// retries each; the rest make one attempt and stop.
	var last error
	for range 100 {
		last = Do(context.Background(), p, op)
	}
	assert.Equal(t, 5*3+95, *calls)
	assert.InDelta(t, 0, b.Tokens(), 1e-9)
	assert.Equal(t, "budget", reason)
	assert.Equal(t, 1, Attempts(last))
	assert.True(t, toolerr.HasCode(last, toolerr.CodeRetryBudgetExhausted))
	assert.ErrorIs(t, last, outage, "the last error is the cause")
	te, ok := toolerr.From(last)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeRetryBudgetExhausted, te.Code)
	assert.False(t, te.Retryable)
	require.NotNil(t, te.Upstream)
	assert.Equal(t, up, *te.Upstream)

	// Twenty first-attempt successes put two tokens back: one more call may
	// retry twice.
	for range 20 {
		require.NoError(t, Do(context.Background(), p, func(context.Context) error { return nil }))
	}
	assert.InDelta(t, 2, b.Tokens(), 1e-9)
	*calls = 0
	err := Do(context.Background(), p, op)
	assert.Equal(t, 3, *calls)
	assert.Equal(t, "attempts", reason)
	assert.False(t, toolerr.HasCode(err, toolerr.CodeRetryBudgetExhausted))

	// A success after a retry spends a token and refunds nothing.
	for range 10 {
		require.NoError(t, Do(context.Background(), p, func(context.Context) error { return nil }))
	}
	assert.InDelta(t, 1, b.Tokens(), 1e-9)
	n := 0
	require.NoError(t, Do(context.Background(), p, func(context.Context) error {
		if n++; n == 1 {
			return outage
		}
		return nil
	}))
	assert.InDelta(t, 0, b.Tokens(), 1e-9)
}

func TestDoHooks(t *testing.T) {
	clk := newRecClock()
	var retries []RetryEvent
	var giveUps []GiveUpEvent
	p := DefaultPolicy()
	p.Clock = clk
	p.RandomizationFactor = 0
	p.InitialInterval = 50 * time.Millisecond
	p.OnRetry = func(ev RetryEvent) { retries = append(retries, ev) }
	p.OnGiveUp = func(ev GiveUpEvent) { giveUps = append(giveUps, ev) }
	last := coreErr(toolerr.CodeUpstreamTimeout)
	op, _ := coreFailing(last)

	err := Do(context.Background(), p, op)

	assert.Equal(t, []RetryEvent{
		{Attempt: 1, Delay: 50 * time.Millisecond, Err: last},
		{Attempt: 2, Delay: 100 * time.Millisecond, Err: last},
	}, retries)
	require.Len(t, giveUps, 1)
	assert.Equal(t, GiveUpEvent{Attempts: 3, Err: err, Reason: "attempts"}, giveUps[0])
}

func TestDoOutOfRangePolicy(t *testing.T) {
	tests := []struct {
		name string
		p    Policy
		want int
	}{
		{"zero policy: one attempt", Policy{}, 1},
		{"negative attempts", Policy{MaxAttempts: -4}, 1},
		{"negative intervals, NaN factors", Policy{
			MaxAttempts: 3, InitialInterval: -time.Second, MaxInterval: -time.Second,
			Multiplier: math.NaN(), RandomizationFactor: math.NaN(),
		}, 3},
		{"huge intervals", Policy{
			MaxAttempts: 3, InitialInterval: math.MaxInt64, MaxInterval: math.MaxInt64,
			Multiplier: math.Inf(1), RandomizationFactor: 7,
		}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.Clock = newRecClock()
			op, calls := coreFailing(coreErr(toolerr.CodeUpstreamUnavailable))
			assert.NotPanics(t, func() { _ = Do(context.Background(), tt.p, op) })
			assert.Equal(t, tt.want, *calls)
		})
	}
}

func TestDoNilArguments(t *testing.T) {
	var reason string
	p := corePolicy(newRecClock(), &reason)
	err := Do(context.Background(), p, nil)
	assert.True(t, toolerr.HasCode(err, toolerr.CodeInternal))
	assert.Equal(t, 0, Attempts(err))
	assert.Equal(t, "not_retryable", reason)

	//lint:ignore SA1012 a nil context must not panic
	assert.NoError(t, Do(nil, p, func(context.Context) error { return nil }))
}
