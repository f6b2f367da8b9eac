package middleware

import (
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
)

// WithFallbacks declares the fallbacks of tool (see toolerr.Fallback):
// the alternative tools an agent may call when tool fails, each with the
// failure categories it covers and whether it mutates. A failure of tool
// of a covered category then carries use_fallback:<fallback> in its
// actions and a hint that names it, in every rendering, but for the guard
// of [toolerr.Registry.OfferFallbacks]: a mutating fallback is never
// offered after an auth, permission or policy failure, nor after a
// timeout or a failure that may have run of a request whose method is not
// GET, HEAD or OPTIONS and that carried no Idempotency-Key.
//
// New declares them in the middleware's registry (see [WithRegistry]),
// where its exports (Markdown, OpenAPI) list them too, replacing a
// declaration the registry held for tool. The built-in registry is shared
// by the process and never changes: without WithRegistry, New declares
// them in a registry of its own that extends it. A declaration the
// registry rejects (an invalid name, no or unknown categories, a tool
// that is its own fallback) is logged as a warning when New runs, and
// declares nothing, as other unusable options are. Default: none.
func WithFallbacks(tool string, fbs ...toolerr.Fallback) Option {
	return func(c *config) {
		c.fallbacks = append(c.fallbacks, fallbackdecl.Decl{Tool: tool, Fallbacks: fbs})
	}
}

// declareFallbacks declares the WithFallbacks options in c's registry, or
// in one of its own when that one is sealed (toolerr.Default).
func (c *config) declareFallbacks() {
	c.registry = fallbackdecl.DeclareAll(c.registry, c.fallbacks, c.logger, "toolerr: WithFallbacks ignored")
}

// offerFallbacks adds to e the fallbacks declared for its tool that its
// failure allows (toolerr.Registry.OfferFallbacks): the request is
// mutating unless its method is GET, HEAD or OPTIONS, and idempotent when
// it carries an Idempotency-Key. e itself when none applies.
func (m *handler) offerFallbacks(r *http.Request, e *toolerr.Error) *toolerr.Error {
	if e.Tool == "" {
		return e
	}
	call := toolerr.FallbackCall{
		Mutating:   r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions,
		Idempotent: canonheader.Value(r.Header, "Idempotency-Key") != "",
	}
	return m.cfg.registry.OfferFallbacks(e, call)
}
