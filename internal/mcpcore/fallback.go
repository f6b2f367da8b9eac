package mcpcore

import (
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
)

// WithFallbacks declares the fallbacks of tool in the core's registry (see
// toolerr.Registry.DeclareFallbacks) when the core is built; an empty tool
// stands for the tool the adapter registers with the option, declared by
// [Core.DeclareFallbacksOf]. The built-in registry is sealed: the core
// then declares them in a registry of its own that extends it. A
// declaration the registry rejects is logged as a warning and declares
// nothing. Default: none.
func WithFallbacks(tool string, fbs ...toolerr.Fallback) Option {
	return func(c *Core) {
		c.fallbacks = append(c.fallbacks, fallbackdecl.Decl{Tool: tool, Fallbacks: fbs})
	}
}

// declareFallbacks declares the WithFallbacks options that name their
// tool; New calls it.
func (c *Core) declareFallbacks() {
	var named []fallbackdecl.Decl
	for _, d := range c.fallbacks {
		if d.Tool != "" {
			named = append(named, d)
		}
	}
	c.declare(named)
}

// DeclareFallbacksOf declares for tool the fallbacks of the WithFallbacks
// options that named no tool: an adapter that registers one tool with the
// core's options (mcptool.AddTool) calls it with the tool's name before
// the core serves any call.
func (c *Core) DeclareFallbacksOf(tool string) {
	var unnamed []fallbackdecl.Decl
	for _, d := range c.fallbacks {
		if d.Tool == "" {
			d.Tool = tool
			unnamed = append(unnamed, d)
		}
	}
	c.declare(unnamed)
}

// declare declares decls in the core's registry, or in a registry of its
// own extending it when that one is sealed.
func (c *Core) declare(decls []fallbackdecl.Decl) {
	c.Registry = fallbackdecl.DeclareAll(c.Registry, decls, c.Logger, "toolerr: WithFallbacks ignored")
}

// offerFallbacks adds to e the fallbacks declared for its tool that its
// failure allows (toolerr.Registry.OfferFallbacks): the call is mutating
// unless the tool is read-only, and idempotent as the tool is.
func (c *Core) offerFallbacks(call Call, e *toolerr.Error) *toolerr.Error {
	if e.Tool == "" {
		return e
	}
	return c.Registry.OfferFallbacks(e, toolerr.FallbackCall{Mutating: !call.ReadOnly, Idempotent: call.Idempotent})
}
