package retrygate

import "time"

// Defaults of a Policy, as DefaultPolicy returns them.
const (
	defaultMaxAttempts         = 3
	defaultInitialInterval     = 200 * time.Millisecond
	defaultMultiplier          = 2
	defaultMaxInterval         = 10 * time.Second
	defaultRandomizationFactor = 1
	defaultMaxServerDelay      = 60 * time.Second
)

// DefaultPolicy returns the policy a tool client should start from:
//
//   - MaxAttempts 3 (the first attempt and two retries);
//   - InitialInterval 200 ms, Multiplier 2, MaxInterval 10 s;
//   - RandomizationFactor 1: full jitter, each wait drawn from (0, 2×interval];
//   - MaxServerDelay 60 s: a longer retry_after_ms or Retry-After is cut to it;
//   - Budget: a new NewBudget(BudgetSettings{}) (10 tokens, 1 per retry, 0.1
//     back per success on the first attempt), so that retries stay near a
//     tenth of the calls that succeed and a sustained outage receives about
//     one request per call; NoBudget false;
//   - RetryInternal false, the real clock, no hooks;
//   - metrics on otel.GetMeterProvider() (see [Policy.WithMeterProvider]).
//
// Each call returns a fresh value with a budget of its own: call it once per
// client and share the result (or its copies, which share the budget) among
// that client's calls. Change its fields freely; set NoBudget to retry
// without a budget.
func DefaultPolicy() Policy {
	return Policy{
		MaxAttempts:         defaultMaxAttempts,
		InitialInterval:     defaultInitialInterval,
		Multiplier:          defaultMultiplier,
		MaxInterval:         defaultMaxInterval,
		RandomizationFactor: defaultRandomizationFactor,
		MaxServerDelay:      defaultMaxServerDelay,
		Budget:              NewBudget(BudgetSettings{}),
		metrics:             newRetryMetrics(nil),
	}
}
