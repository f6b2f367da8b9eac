package toolerr

import (
	"slices"
	"strings"
)

// FallbackCall is what an adapter knows of the failed call that decides
// whether a mutating fallback may be offered.
type FallbackCall struct {
	// Mutating says the failed call may change state (an HTTP method
	// other than GET, HEAD and OPTIONS; an MCP tool not marked read-only).
	Mutating bool
	// Idempotent says repeating the failed call does its work once: it
	// carried an idempotency key (or, for MCP, the tool is marked
	// idempotent).
	Idempotent bool
}

// OfferFallbacks adds to e the fallbacks declared for e.Tool in r (see
// [Registry.DeclareFallbacks]) that cover e's category: a
// use_fallback:<tool> action each, after e's own actions, and one sentence
// after e's hint that names them ("If it keeps failing, call geocode_backup
// instead." for a retryable error, "Alternatively, call search_broad." for
// another). It returns e itself, nothing allocated, when no fallback
// applies or e offers them all already, and a copy otherwise.
//
// A mutating fallback is never offered
//   - after a failure of category auth, permission or policy: the agent
//     must not route around a refusal with another write;
//   - after a failure of unknown outcome of a call that was mutating and
//     not idempotent: the write may have happened, and a second one by
//     another tool would run it twice.
//
// The outcome is unknown when e is a timeout (UPSTREAM_TIMEOUT,
// TOOL_TIMEOUT), a cancellation (CANCELLED), carries an intent (the
// operation was interrupted part way), or is of a code registered as
// retryable that e says is not: the classifier turns retrying off for a
// call that may have run (a connection dropped after the request was
// sent), and so may a vendor's advice; both withhold the fallback.
//
// A thrash guard refusal (REPEATED_FAILURE, whose details' repeated_code
// names the code that kept failing) is treated as a failure of the
// repeated code, for the categories covered and for the guard alike; a
// repeated code r does not know offers nothing.
func (r *Registry) OfferFallbacks(e *Error, call FallbackCall) *Error {
	if e == nil {
		return e
	}
	fbs := r.fallbacksOf(e.Tool)
	if len(fbs) == 0 {
		return e
	}
	code, category := e.Code, e.Category
	if code == CodeRepeatedFailure {
		repeated, _ := e.Details["repeated_code"].(string)
		c, _, ok := r.Kind(repeated)
		if !ok {
			return e
		}
		code, category = repeated, c
	}
	refused := category == CategoryAuth || category == CategoryPermission || category == CategoryPolicy
	unknown := call.Mutating && !call.Idempotent && r.outcomeUnknown(e, code)
	var offer []string
	for _, fb := range fbs {
		if !slices.Contains(fb.On, category) || fb.Mutates && (refused || unknown) {
			continue
		}
		if slices.Contains(e.Actions, ActionUseFallbackPrefix+fb.Tool) {
			continue
		}
		offer = append(offer, fb.Tool)
	}
	if len(offer) == 0 {
		return e
	}
	c := *e
	c.Actions = slices.Grow(slices.Clip(e.Actions), len(offer))
	for _, tool := range offer {
		c.Actions = append(c.Actions, ActionUseFallbackPrefix+tool)
	}
	hint, _, _ := e.RenderedHints()
	c.Hint = withFallbackSentence(hint, offer, e.Retryable)
	return &c
}

// outcomeUnknown reports whether the call that failed with e (whose code,
// or repeated code, is code) may have taken effect.
func (r *Registry) outcomeUnknown(e *Error, code string) bool {
	switch code {
	case CodeUpstreamTimeout, CodeToolTimeout, CodeCancelled:
		return true
	}
	if e.Intent != nil {
		return true
	}
	if _, retryable, ok := r.Kind(code); ok && retryable {
		// Registered as retryable, yet not: made so because it may have
		// run. A refusal of the thrash guard counts only failures that
		// were not retryable, so a retryable repeated code was one too.
		return code != e.Code || !e.Retryable
	}
	return false
}

// withFallbackSentence appends to hint the sentence that names the
// fallback tools.
func withFallbackSentence(hint string, tools []string, retryable bool) string {
	var b strings.Builder
	b.Grow(len(hint) + 48 + 16*len(tools))
	if hint = strings.TrimSpace(hint); hint != "" {
		b.WriteString(hint)
		if last := hint[len(hint)-1]; last != '.' && last != '!' && last != '?' {
			b.WriteByte('.')
		}
		b.WriteByte(' ')
	}
	if retryable {
		b.WriteString("If it keeps failing, call ")
	} else {
		b.WriteString("Alternatively, call ")
	}
	for i, tool := range tools {
		switch {
		case i == 0:
		case i == len(tools)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(tool)
	}
	if retryable {
		b.WriteString(" instead.")
	} else {
		b.WriteByte('.')
	}
	return b.String()
}
