package toolerr

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Fallback is an alternative tool an agent may call when a tool fails: a
// backup geocoder for a geocoder's transient and upstream failures, a
// broader search for a lookup's not_found. Declare a tool's fallbacks once,
// in its registry ([Registry.DeclareFallbacks]); every adapter offers them
// on a matching failure ([Registry.OfferFallbacks]) and every export of
// package errdocs lists them.
type Fallback struct {
	// Tool is the name of the alternative tool, as the agent calls it.
	Tool string
	// On lists the failure categories the fallback covers; at least one.
	On []Category
	// Mutates says whether calling the fallback changes state. A mutating
	// fallback is never offered after an auth, permission or policy
	// failure, nor after a mutating call of unknown outcome that carried
	// no idempotency key (see [Registry.OfferFallbacks]).
	Mutates bool
}

// maxFallbacks bounds the fallbacks of one tool: each is one action of the
// error, and an error renders at most MaxListLen actions.
const maxFallbacks = 8

// DeclareFallbacks sets the fallbacks of tool in r, in order of preference,
// replacing any declared before in r; declaring none removes r's
// declaration, so that a parent's shows again. A child registry
// (NewRegistry(r)) sees r's declarations unless it declares the tool's
// own.
//
// It reports every problem, all or nothing: a tool name that cannot be
// named in a use_fallback action (empty, spaces, control characters,
// quotes, non-ASCII, too long), a fallback without categories or with an
// unknown one, a tool named as its own fallback, the same fallback named
// twice, more than 8 fallbacks.
//
// The built-in registry, [Default], is sealed: it is shared by the whole
// process, so DeclareFallbacks returns an error that matches [ErrSealed].
// Declare in a registry of your own, NewRegistry(toolerr.Default()). The
// middleware's and the MCP adapters' WithFallbacks options do so for you
// when they were given no registry. Safe for concurrent use.
func (r *Registry) DeclareFallbacks(tool string, fbs ...Fallback) error {
	if r.sealed {
		return fmt.Errorf("%w; declare fallbacks in NewRegistry(toolerr.Default())", ErrSealed)
	}
	if err := validateFallbacks(tool, fbs); err != nil {
		return fmt.Errorf("toolerr: fallbacks of %q: %w", truncateForError(tool), err)
	}
	own := make([]Fallback, len(fbs))
	for i, fb := range fbs {
		own[i] = Fallback{Tool: fb.Tool, On: slices.Clone(fb.On), Mutates: fb.Mutates}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	next := map[string][]Fallback{}
	if old := r.fallbacks.Load(); old != nil {
		next = maps.Clone(*old)
	}
	if len(own) == 0 {
		delete(next, tool)
	} else {
		next[tool] = own
	}
	r.fallbacks.Store(&next)
	return nil
}

// validateFallbacks reports every problem of a declaration.
func validateFallbacks(tool string, fbs []Fallback) error {
	var errs []error
	if !ValidAction(ActionUseFallbackPrefix + tool) {
		errs = append(errs, errors.New("the tool name cannot be named in a use_fallback action"))
	}
	if len(fbs) > maxFallbacks {
		errs = append(errs, fmt.Errorf("%d fallbacks, more than %d", len(fbs), maxFallbacks))
	}
	seen := make(map[string]bool, len(fbs))
	for _, fb := range fbs {
		name := truncateForError(fb.Tool)
		switch {
		case !ValidAction(ActionUseFallbackPrefix + fb.Tool):
			errs = append(errs, fmt.Errorf("fallback %q: the name cannot be named in a use_fallback action", name))
		case fb.Tool == tool:
			errs = append(errs, fmt.Errorf("fallback %q: a tool cannot be its own fallback", name))
		case seen[fb.Tool]:
			errs = append(errs, fmt.Errorf("fallback %q: declared twice", name))
		}
		seen[fb.Tool] = true
		if len(fb.On) == 0 {
			errs = append(errs, fmt.Errorf("fallback %q: no categories", name))
		}
		for _, c := range fb.On {
			if !c.Valid() {
				errs = append(errs, fmt.Errorf("fallback %q: unknown category %q", name, truncateForError(string(c))))
			}
		}
	}
	return errors.Join(errs...)
}

// Fallbacks returns copies of the fallbacks declared for tool, in order of
// preference: r's declaration, else its parent's, and so on; nil when none
// declares the tool.
func (r *Registry) Fallbacks(tool string) []Fallback {
	fbs := r.fallbacksOf(tool)
	if fbs == nil {
		return nil
	}
	out := make([]Fallback, len(fbs))
	for i, fb := range fbs {
		out[i] = Fallback{Tool: fb.Tool, On: slices.Clone(fb.On), Mutates: fb.Mutates}
	}
	return out
}

// fallbacksOf returns the declared fallbacks of tool, not copied: nothing
// writes a declaration after DeclareFallbacks stored it.
func (r *Registry) fallbacksOf(tool string) []Fallback {
	for reg := r; reg != nil; reg = reg.parent {
		if m := reg.fallbacks.Load(); m != nil {
			if fbs, ok := (*m)[tool]; ok {
				return fbs
			}
		}
	}
	return nil
}

// DeclaredFallbacks returns copies of the fallbacks of every tool that
// declares some, keyed by tool: r's declarations and its parents', a tool
// declared in r hiding its parent's declaration, as [Registry.Fallbacks]
// reads it; nil when no tool declares any. Package errdocs lists them.
func (r *Registry) DeclaredFallbacks() map[string][]Fallback {
	var out map[string][]Fallback
	for reg := r; reg != nil; reg = reg.parent {
		if m := reg.fallbacks.Load(); m != nil {
			for tool := range *m {
				if _, seen := out[tool]; !seen {
					if out == nil {
						out = map[string][]Fallback{}
					}
					out[tool] = r.Fallbacks(tool)
				}
			}
		}
	}
	return out
}

// FallbackTools returns the fallback tools the *Error in err's chain
// offers (its use_fallback:<tool> actions), in order of preference; nil
// when it offers none or err holds no *Error. It is how a Go orchestrator
// routes a failed call to a backup in one call.
func FallbackTools(err error) []string {
	e, ok := From(err)
	if !ok {
		return nil
	}
	var tools []string
	for _, a := range e.Actions {
		if tool, ok := strings.CutPrefix(a, ActionUseFallbackPrefix); ok && tool != "" {
			tools = append(tools, tool)
		}
	}
	return tools
}
