package toolerr

import (
	"maps"
	"slices"
	"time"
)

// The With… methods return a modified copy and never change the receiver,
// so an *Error shared between goroutines, or built from a registered
// definition, stays as it was. Slices and maps passed in are copied.
// On a nil receiver they return nil.

// with returns a copy of e changed by set, or nil for a nil e.
func (e *Error) with(set func(c *Error)) *Error {
	if e == nil {
		return nil
	}
	c := *e
	set(&c)
	return &c
}

// WithCause returns a copy whose Go cause is err. The cause is reachable with
// errors.Is/As and [Error.Unwrap], and is never serialized.
func (e *Error) WithCause(err error) *Error {
	return e.with(func(c *Error) { c.cause = err })
}

// WithDetail returns a copy with the occurrence's detail.
func (e *Error) WithDetail(detail string) *Error {
	return e.with(func(c *Error) { c.Detail = detail })
}

// WithStatus returns a copy with another HTTP status.
func (e *Error) WithStatus(status int) *Error {
	return e.with(func(c *Error) { c.Status = status })
}

// WithSeverity returns a copy with another severity.
func (e *Error) WithSeverity(s Severity) *Error {
	return e.with(func(c *Error) { c.Severity = s })
}

// WithRetryable returns a copy with retryable set. Marking an error retryable
// whose category cannot be ([Category.CanRetry]) breaks the contract and is
// reported by [Validate].
func (e *Error) WithRetryable(retryable bool) *Error {
	return e.with(func(c *Error) { c.Retryable = retryable })
}

// WithRetryAfter returns a copy that asks the caller to wait d before retrying.
func (e *Error) WithRetryAfter(d time.Duration) *Error {
	return e.with(func(c *Error) { c.RetryAfter = max(d, 0) })
}

// WithField returns a copy naming the offending input (a JSON pointer or dotted path).
func (e *Error) WithField(field string) *Error {
	return e.with(func(c *Error) { c.Field = field })
}

// WithAllowedValues returns a copy with the values the field accepts: a slice
// (an enum), a [Range], a pattern string or a JSON Schema fragment.
func (e *Error) WithAllowedValues(v any) *Error {
	return e.with(func(c *Error) { c.AllowedValues = v })
}

// WithSuggestedValue returns a copy with a value the agent can use as is.
func (e *Error) WithSuggestedValue(v any) *Error {
	return e.with(func(c *Error) { c.SuggestedValue = v })
}

// WithHint returns a copy with an imperative next step for the model.
func (e *Error) WithHint(hint string) *Error {
	return e.with(func(c *Error) { c.Hint = hint })
}

// WithHumanHint returns a copy with a sentence safe to show the end user.
func (e *Error) WithHumanHint(hint string) *Error {
	return e.with(func(c *Error) { c.HumanHint = hint })
}

// WithSuggestions returns a copy with these ordered recovery steps.
func (e *Error) WithSuggestions(steps ...string) *Error {
	return e.with(func(c *Error) { c.Suggestions = slices.Clone(steps) })
}

// WithActions returns a copy with these orchestrator action tags.
func (e *Error) WithActions(actions ...string) *Error {
	return e.with(func(c *Error) { c.Actions = slices.Clone(actions) })
}

// WithRelatedCodes returns a copy naming sibling codes.
func (e *Error) WithRelatedCodes(codes ...string) *Error {
	return e.with(func(c *Error) { c.RelatedCodes = slices.Clone(codes) })
}

// WithDetails returns a copy whose details hold the receiver's entries
// overlaid with these. Values must be JSON-encodable.
func (e *Error) WithDetails(details map[string]any) *Error {
	return e.with(func(c *Error) {
		merged := make(map[string]any, len(e.Details)+len(details))
		maps.Copy(merged, e.Details)
		maps.Copy(merged, details)
		c.Details = merged
	})
}

// WithExampleRequest returns a copy with a minimal corrected request body.
func (e *Error) WithExampleRequest(body any) *Error {
	return e.with(func(c *Error) { c.ExampleRequest = body })
}

// WithIntent returns a copy recording how far an interrupted operation got.
func (e *Error) WithIntent(in Intent) *Error {
	return e.with(func(c *Error) { c.Intent = &in })
}

// WithTool returns a copy naming the tool that failed.
func (e *Error) WithTool(tool string) *Error {
	return e.with(func(c *Error) { c.Tool = tool })
}

// WithUpstream returns a copy describing the downstream failure behind it.
func (e *Error) WithUpstream(u Upstream) *Error {
	return e.with(func(c *Error) { c.Upstream = &u })
}

// WithViolations returns a copy listing the argument violations of a
// VALIDATION_FAILED. It leaves Field, AllowedValues and SuggestedValue as
// they are: set them to the most actionable violation (argcheck does).
func (e *Error) WithViolations(vs ...Violation) *Error {
	return e.with(func(c *Error) { c.Violations = slices.Clone(vs) })
}

// WithItems returns a copy carrying the per-item errors of a batch.
func (e *Error) WithItems(items ...ItemError) *Error {
	return e.with(func(c *Error) { c.Errors = slices.Clone(items) })
}

// WithInstance returns a copy with the occurrence's instance URI.
func (e *Error) WithInstance(instance string) *Error {
	return e.with(func(c *Error) { c.Instance = instance })
}

// WithRequestID returns a copy with the request id.
func (e *Error) WithRequestID(id string) *Error {
	return e.with(func(c *Error) { c.RequestID = id })
}

// WithTraceID returns a copy with the W3C trace id.
func (e *Error) WithTraceID(id string) *Error {
	return e.with(func(c *Error) { c.TraceID = id })
}
