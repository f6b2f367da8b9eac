package retrygate

import (
	"math"
	"sync"
)

// Budget defaults. See BudgetSettings for where they come from.
const (
	defaultBudgetMaxTokens     = 10
	defaultBudgetRetryCost     = 1
	defaultBudgetSuccessRefund = 0.1

	// milli is the resolution of the bucket: tokens are counted in
	// thousandths, in integers, so that refunds of 0.1 add up exactly (gRPC's
	// C core keeps its throttling count in milli-tokens too).
	milli = 1000
	// maxBudgetTokens bounds every setting so that milli-tokens fit an int64.
	maxBudgetTokens = 1e12
)

// BudgetSettings configures a Budget. A field that is zero, negative or not
// a finite number takes its default; values are kept to a thousandth of a
// token and capped at 10^12.
//
// The defaults follow gRPC's retry throttling, where a service config sets
// maxTokens (between 1 and 1000) and tokenRatio (a fraction with up to three
// decimals, 0.1 in the gRFC's example) and a client stops retrying while its
// bucket is low. The AWS SDKs' standard retry mode keeps a retry quota in the
// same shape: 500 tokens, 5 spent per retry (10 after a timeout) and 1
// returned per success on the first attempt, so retries stay near a fifth of
// requests. With the defaults here retries stay near a tenth of first-attempt
// successes once the bucket is empty, within the ten to twenty percent the
// design asks for.
type BudgetSettings struct {
	// MaxTokens is the capacity of the bucket, which starts full. Default 10
	// (gRPC's example maxTokens).
	MaxTokens float64
	// RetryCost is what one retry spends. Default 1 (gRPC counts a failure
	// as one token).
	RetryCost float64
	// SuccessRefund is what a success on the first attempt puts back.
	// Default 0.1 (gRPC's example tokenRatio).
	SuccessRefund float64
}

// Budget is a token bucket of retries shared by the calls of one client,
// so that retries cannot multiply the load on a failing service: each retry
// spends a cost, each first-attempt success refunds a little, and when the
// bucket is empty Do stops retrying with RETRY_BUDGET_EXHAUSTED.
//
// A Budget is safe for concurrent use. A nil *Budget allows every retry.
type Budget struct {
	mu     sync.Mutex
	tokens int64 // milli-tokens
	max    int64
	cost   int64
	refund int64
}

// NewBudget returns a full Budget with the settings s; zero fields take
// their defaults (see BudgetSettings).
func NewBudget(s BudgetSettings) *Budget {
	b := &Budget{
		max:    toMilli(s.MaxTokens, defaultBudgetMaxTokens),
		cost:   toMilli(s.RetryCost, defaultBudgetRetryCost),
		refund: toMilli(s.SuccessRefund, defaultBudgetSuccessRefund),
	}
	b.tokens = b.max
	return b
}

// toMilli converts a setting to milli-tokens, taking def for a value that is
// not a positive finite number and keeping at least one milli-token.
func toMilli(v, def float64) int64 {
	if math.IsNaN(v) || v <= 0 {
		v = def
	}
	v = math.Min(v, maxBudgetTokens)
	return max(int64(math.Round(v*milli)), 1)
}

// TryRetry spends the cost of one retry and reports true when the bucket
// holds it; otherwise it spends nothing and reports false.
func (b *Budget) TryRetry() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens < b.cost {
		return false
	}
	b.tokens -= b.cost
	return true
}

// Success records a success on the first attempt: it puts SuccessRefund
// back, up to MaxTokens.
func (b *Budget) Success() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = min(b.tokens+b.refund, b.max)
}

// Tokens returns the tokens left, to a thousandth; 0 for a nil Budget.
func (b *Budget) Tokens() float64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return float64(b.tokens) / milli
}
