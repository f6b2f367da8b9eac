package toolerrmcpgo

import (
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/mcpcore"
)

// WithThrashGuard makes the adapter refuse a tool call that keeps failing
// the same way: when the same caller (scoped as [WithIdempotency] scopes
// keys) calls the same tool with the same canonical arguments, and the
// call failed twice in a row with the same non-retryable code within 10
// minutes, the next identical call is not run and gets REPEATED_FAILURE
// (policy, not retryable; details repeated_code, failures, window_ms).
// idempotency.WithThrashAfter and idempotency.WithThrashWindow change the
// defaults. A retryable failure, a cancellation, an error result the
// handler built itself, a replayed result and a refusal count for
// nothing; a success clears the run. The counts live in counter (nil: one
// in-process idempotency.MemoryStore per option value); replicas share
// theirs through idempotency/redisstore. A store that is down lets calls
// through, logged. Default: none.
func WithThrashGuard(counter idempotency.FailureCounter, opts ...idempotency.Option) Option {
	return mcpcore.WithThrashGuard(counter, opts...)
}
