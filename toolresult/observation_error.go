package toolresult

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// toError builds the error the members say, on the built-in registry's
// definition of the code where it has one (see [ParseObservation]).
func (m *obsMembers) toError() *toolerr.Error {
	e := &toolerr.Error{
		Type:           "urn:toolerr:" + m.code,
		Title:          fallbackTitle(m.code),
		Detail:         m.detail,
		Code:           m.code,
		Category:       m.category,
		Severity:       toolerr.SeverityError,
		Retryable:      m.retryable,
		RetryAfter:     time.Duration(m.retryAfterMS) * time.Millisecond,
		Field:          m.field,
		AllowedValues:  m.allowed,
		SuggestedValue: m.suggested,
		Hint:           m.hint,
		HumanHint:      m.humanHint,
		Actions:        m.actions,
		Details:        m.details,
		ExampleRequest: m.example,
		Intent:         m.intent,
		Violations:     m.violations,
		RequestID:      m.requestID,
	}
	var policy *toolerr.RetryPolicy
	if d, ok := toolerr.Default().Lookup(m.code); ok {
		e.Title, e.Status, e.Severity = d.Title, d.Status, d.Severity
		e.RelatedCodes = d.Related
		if d.DocsURL != "" {
			e.Type, e.DocsURL = d.DocsURL, d.DocsURL
		}
		if d.Retryable {
			p := d.Retry
			policy = &p
		}
	}
	if m.category == toolerr.CategoryCancelled && e.Severity == toolerr.SeverityError {
		e.Severity = toolerr.SeverityInfo
	}
	if m.retryable && (policy != nil || m.maxAttempts > 0) {
		if policy == nil {
			// An unknown code: the strategy the text implies.
			policy = &toolerr.RetryPolicy{Strategy: toolerr.StrategyExponential}
			if m.retryAfterMS > 0 {
				policy.Strategy = toolerr.StrategyRetryAfter
			}
		}
		if m.maxAttempts > 0 {
			policy.MaxAttempts = int(m.maxAttempts)
		}
		e.RetryPolicy = policy
	}
	return e
}

// withRanges returns e with every allowed_values that is a range, an
// object of "minimum" and/or "maximum" alone, as a toolerr.Range, so that
// it renders as the server wrote it, minimum first (a decoded object
// renders with its keys sorted). e is the caller's own, freshly parsed
// error: it is changed in place.
func withRanges(e *toolerr.Error) *toolerr.Error {
	e.AllowedValues = asRange(e.AllowedValues)
	for i := range e.Violations {
		e.Violations[i].AllowedValues = asRange(e.Violations[i].AllowedValues)
	}
	return e
}

// asRange returns v as a toolerr.Range when it is a JSON object of a
// minimum and/or a maximum, both numbers, and nothing else; else v.
func asRange(v any) any {
	obj, ok := v.(map[string]any)
	if !ok || len(obj) == 0 || len(obj) > 2 {
		return v
	}
	var r toolerr.Range
	for k, bound := range obj {
		if _, isNumber := bound.(json.Number); !isNumber {
			return v
		}
		switch k {
		case "minimum":
			r.Minimum = bound
		case "maximum":
			r.Maximum = bound
		default:
			return v
		}
	}
	return r
}

// fallbackTitle is the title of a code the built-in registry does not
// know: its words, "AMOUNT_EXCEEDS_REFUNDABLE" → "Amount exceeds
// refundable".
func fallbackTitle(code string) string {
	words := strings.ToLower(strings.ReplaceAll(code, "_", " "))
	if words == "" {
		return ""
	}
	return strings.ToUpper(words[:1]) + words[1:]
}

// cleaner is the sanitizer of every error read from a response, with its
// defaults, built once on first use; it is immutable and safe for
// concurrent use.
var cleaner = sync.OnceValue(func() *sanitize.Sanitizer { return sanitize.New() })

// sanitized returns e with every string sanitized (toolerr.Error.MapText):
// whatever a tool server sent, toolerr's or not, is untrusted text.
func sanitized(e *toolerr.Error) *toolerr.Error {
	return e.MapText(cleaner().CleanText)
}
