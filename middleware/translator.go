package middleware

import (
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Translator reads a captured raw error response into an outcome the
// classifier understands. *translate.Set is one; it must be safe for
// concurrent use and must not keep r, r.Body or r.Header after it returns
// (the middleware reuses them). ok is false when it does not read the
// response; the status and headers then decide.
type Translator interface {
	Translate(r *translate.Raw) (o classify.Outcome, ok bool)
}

// TranslatorFunc adapts a function to [Translator].
type TranslatorFunc func(r *translate.Raw) (classify.Outcome, bool)

// Translate calls f.
func (f TranslatorFunc) Translate(r *translate.Raw) (classify.Outcome, bool) { return f(r) }
