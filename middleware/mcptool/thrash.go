package mcptool

import (
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/mcpcore"
)

// WithThrashGuard makes a tool registered with [AddTool] refuse a call
// that keeps failing the same way: when the same caller (scoped as
// [WithIdempotency] scopes keys: the user of a verified bearer token, else
// the Authorization header of the POST, else the MCP session) calls the
// tool with the same canonical arguments, and the call failed twice in a
// row with the same non-retryable code within 10 minutes, the next
// identical call is not run and gets REPEATED_FAILURE (policy, not
// retryable), whose details name the code that kept failing
// (repeated_code), how often (failures) and the window (window_ms), and
// whose detail tells the model to change the arguments, use a fallback
// tool if one is offered, or ask the user. idempotency.WithThrashAfter and
// idempotency.WithThrashWindow change the defaults.
//
// A retryable failure, a cancellation, an error result the handler built
// itself, a replayed result and a refusal count for nothing; a success
// clears the run. Calls with other arguments run. The counts live in
// counter (nil: one in-process idempotency.MemoryStore per option value);
// replicas share theirs through idempotency/redisstore. A store that is
// down lets calls through, logged. Anonymous calls (stdio) are guarded
// only with idempotency.SharedAnonymousScope. Like [WithIdempotency], only
// [AddTool] applies it. Default: none.
func WithThrashGuard(counter idempotency.FailureCounter, opts ...idempotency.Option) Option {
	return mcpcore.WithThrashGuard(counter, opts...)
}
