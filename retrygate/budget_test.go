package retrygate

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func TestNewBudgetSettings(t *testing.T) {
	tests := []struct {
		name      string
		s         BudgetSettings
		wantFull  float64
		wantSpend int // retries a full bucket allows
	}{
		{"defaults", BudgetSettings{}, 10, 10},
		{"negative and NaN take defaults", BudgetSettings{MaxTokens: -1, RetryCost: math.NaN(), SuccessRefund: -3}, 10, 10},
		{"AWS-like quota", BudgetSettings{MaxTokens: 500, RetryCost: 5, SuccessRefund: 1}, 500, 100},
		{"fractional cost", BudgetSettings{MaxTokens: 1, RetryCost: 0.3}, 1, 3},
		{"huge capacity is capped", BudgetSettings{MaxTokens: math.Inf(1), RetryCost: 1e12}, 1e12, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBudget(tt.s)
			assert.InDelta(t, tt.wantFull, b.Tokens(), 1e-9)
			n := 0
			for b.TryRetry() {
				n++
				require.LessOrEqual(t, n, tt.wantSpend, "budget never empties")
			}
			assert.Equal(t, tt.wantSpend, n)
		})
	}
}

func TestBudgetRefill(t *testing.T) {
	b := NewBudget(BudgetSettings{})
	for b.TryRetry() {
	}
	assert.InDelta(t, 0, b.Tokens(), 1e-9)

	// Ten refunds of 0.1 make exactly one token: no float drift.
	for range 9 {
		b.Success()
	}
	assert.False(t, b.TryRetry(), "0.9 tokens do not pay a retry")
	b.Success()
	assert.InDelta(t, 1, b.Tokens(), 1e-9)
	assert.True(t, b.TryRetry())
	assert.False(t, b.TryRetry())

	// Refunds stop at the capacity.
	for range 1000 {
		b.Success()
	}
	assert.InDelta(t, 10, b.Tokens(), 1e-9)
}

func TestBudgetNil(t *testing.T) {
	var b *Budget
	assert.True(t, b.TryRetry())
	assert.NotPanics(t, b.Success)
	assert.Zero(t, b.Tokens())
}

func TestBudgetConcurrent(t *testing.T) {
	t.Run("spends exactly the capacity", func(t *testing.T) {
		b := NewBudget(BudgetSettings{MaxTokens: 100, RetryCost: 1})
		var granted atomic.Int64
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				for range 50 {
					if b.TryRetry() {
						granted.Add(1)
					}
				}
			})
		}
		wg.Wait()
		assert.Equal(t, int64(100), granted.Load())
		assert.InDelta(t, 0, b.Tokens(), 1e-9)
	})
	t.Run("mixed use stays in bounds", func(t *testing.T) {
		b := NewBudget(BudgetSettings{})
		var wg sync.WaitGroup
		for i := range 32 {
			wg.Go(func() {
				for range 200 {
					if i%2 == 0 {
						b.TryRetry()
					} else {
						b.Success()
					}
					tok := b.Tokens()
					assert.True(t, tok >= 0 && tok <= 10, "tokens %v out of bounds", tok)
				}
			})
		}
		wg.Wait()
	})
}

func TestDoDefaultBudget(t *testing.T) {
	withNoBudget := func(p Policy) Policy { p.NoBudget = true; return p }
	tests := []struct {
		name      string
		policy    Policy
		wantCalls int // attempts over 100 calls to a service that always fails
	}{
		{"DefaultPolicy: one attempt per call, plus the bucket", DefaultPolicy(), 100 + 10},
		{"DefaultPolicy with NoBudget: three attempts per call", withNoBudget(DefaultPolicy()), 300},
		{"NoBudget wins over a Budget", withNoBudget(Policy{MaxAttempts: 3, Budget: NewBudget(BudgetSettings{})}), 300},
		{"a literal without Budget: Do keeps none", Policy{MaxAttempts: 3}, 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.policy
			p.Clock = newRecClock()
			op, calls := coreFailing(coreErr(toolerr.CodeUpstreamUnavailable))
			for range 100 {
				require.Error(t, Do(context.Background(), p, op))
			}
			assert.Equal(t, tt.wantCalls, *calls)
		})
	}
	assert.NotSame(t, DefaultPolicy().Budget, DefaultPolicy().Budget, "each DefaultPolicy has a budget of its own")
}
