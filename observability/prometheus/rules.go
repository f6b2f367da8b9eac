// Package prometheus holds toolerr's Prometheus recording and alerting
// rules (toolerr.rules.yml) and their promtool unit tests
// (toolerr.rules.test.yml). Load the file in Prometheus with rule_files,
// or take its bytes from [Rules] to embed it in a deployment tool.
//
// The alerts: ToolerrUpstreamUnmapped (a vendor's responses no translator
// maps), ToolerrToolErrorRate (a tool's server-side error ratio),
// ToolerrBreakerStuckOpen (a host's breaker not closed for 10 minutes),
// ToolerrRetryBudgetExhausted (retries refused for 10 minutes) and
// ToolerrIdempotencyStoreUnavailable (the idempotency store failing).
// Each carries a severity label and summary, description and runbook
// annotations; docs/observability.md explains them.
package prometheus

import (
	_ "embed"
	"slices"
)

//go:embed toolerr.rules.yml
var rules []byte

// Rules returns the contents of toolerr.rules.yml, a copy the caller may
// change.
func Rules() []byte { return slices.Clone(rules) }
