package toolerrconnect

import (
	"connectrpc.com/connect"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
)

// WithFallbacks declares the fallbacks of tool, a procedure's tool name
// (spec.Procedure, "/billing.v1.BillingService/Charge", unless
// [WithToolName] names it otherwise): the alternative tools an agent may
// call when it fails, each with the failure categories it covers and
// whether it mutates (see toolerr.Fallback). A failure of a covered
// category then carries the hint that names the fallback (ErrorInfo
// metadata "hint") and the tools, in order of preference, as ErrorInfo
// metadata "actions" (a JSON array of use_fallback:<tool>), but for the
// guard of toolerr.Registry.OfferFallbacks: a mutating fallback is never
// offered after an auth, permission or policy failure, nor after a
// timeout or a failure that may have run of a procedure that is neither
// free of side effects nor idempotent (its idempotency level).
//
// NewInterceptor declares them in the registry of [WithRegistry], whose
// exports then list them, or, without one, in a registry of its own that
// extends the built-in one (which never changes). A declaration the
// registry rejects is logged as a warning and declares nothing. Default:
// none.
func WithFallbacks(tool string, fbs ...toolerr.Fallback) Option {
	return func(c *config) {
		c.fallbacks = append(c.fallbacks, fallbackdecl.Decl{Tool: tool, Fallbacks: fbs})
	}
}

// declareFallbacks declares the WithFallbacks options in c's registry, or
// in one of its own when that one is sealed (toolerr.Default).
func (c *config) declareFallbacks() {
	c.registry = fallbackdecl.DeclareAll(c.registry, c.fallbacks, c.logger, "toolerrconnect: WithFallbacks ignored")
}

// offerFallbacks adds to e the fallbacks declared for its tool that its
// failure allows: a procedure mutates unless it has no side effects, and
// is idempotent when its idempotency level says so.
func (i *interceptor) offerFallbacks(call callInfo, e *toolerr.Error) *toolerr.Error {
	level := call.spec.IdempotencyLevel
	return i.cfg.registry.OfferFallbacks(e, toolerr.FallbackCall{
		Mutating:   level != connect.IdempotencyNoSideEffects,
		Idempotent: level == connect.IdempotencyIdempotent || level == connect.IdempotencyNoSideEffects,
	})
}
