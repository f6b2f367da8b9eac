package toolerr

import (
	"errors"
	"time"
)

// Error is the one error type of the contract: everything an agent needs to
// decide its next call, and nothing it must not see.
//
// Build one from a registered code with [Registry.New] and refine it with the
// With… methods, which return modified copies. The Go cause set by
// [Error.WithCause] is kept for errors.Is/As and logs and is never serialized.
//
// The exported fields mirror the wire members (see the contract table in
// docs/contract.md); durations are encoded in whole milliseconds, rounded up. An *Error
// is safe for concurrent reads; do not mutate one that another goroutine may
// be reading: use the With… methods instead.
type Error struct {
	// Type is the RFC 9457 type URI: the code's docs URL or "urn:toolerr:<CODE>".
	Type string
	// Title is the code's short fixed summary.
	Title string
	// Status is the HTTP status of the response that carries the error.
	Status int
	// Detail describes this occurrence, declaratively, in sanitized text.
	Detail string
	// Instance is the request path or id of this occurrence.
	Instance string
	// Code is the stable SCREAMING_SNAKE code from the registry.
	Code string
	// Category is the taxonomy category of the code.
	Category Category
	// Severity says how bad the failure is for the agent's task.
	Severity Severity
	// Retryable is true only if the same call, unchanged, can succeed.
	Retryable bool
	// RetryAfter is how long to wait before retrying (wire: retry_after_ms).
	RetryAfter time.Duration
	// Field is the JSON pointer or dotted path of the offending input.
	Field string
	// AllowedValues is an enum, a [Range], a pattern or a schema fragment.
	AllowedValues any
	// SuggestedValue is a concrete value the agent can use as is.
	SuggestedValue any
	// Hint is the imperative next step for the model.
	Hint string
	// HumanHint is a sentence safe to show the end user.
	HumanHint string
	// Suggestions are ordered recovery steps, most likely first.
	Suggestions []string
	// Actions are machine tags for the orchestrator (see the Action… constants).
	Actions []string
	// DocsURL is the canonical documentation of the code.
	DocsURL string
	// RelatedCodes names sibling codes, such as the upstream cause.
	RelatedCodes []string
	// Details holds structured facts for the next call.
	Details map[string]any
	// ExampleRequest is a minimal corrected request body.
	ExampleRequest any
	// RetryPolicy is the code's retry policy; rendered only when Retryable.
	RetryPolicy *RetryPolicy
	// Intent records how far an interrupted operation got.
	Intent *Intent
	// Tool is the name of the tool (endpoint) that failed.
	Tool string
	// Upstream describes the downstream failure behind this one.
	Upstream *Upstream
	// Errors holds the per-item errors of a batch.
	Errors []ItemError
	// Violations lists every way the call's arguments break the tool's
	// schema, for VALIDATION_FAILED (see package argcheck); Field,
	// AllowedValues and SuggestedValue repeat the most actionable one.
	Violations []Violation
	// TraceID is the W3C trace id of the current span; empty when there is none.
	TraceID string
	// RequestID identifies the request; [Write] always fills it.
	RequestID string

	cause error
	// def is the registered definition the error was built from, whose
	// wordings RenderedHints chooses from; nil for parsed errors.
	def *Def
}

// Orchestrator action tags for [Error.Actions].
const (
	// ActionRefreshAuth: refresh the credentials, then retry once.
	ActionRefreshAuth = "refresh_auth"
	// ActionHumanRequired: a person must act before the task can go on.
	ActionHumanRequired = "human_required"
	// ActionReadStateFirst: read the current state of the resource before deciding again.
	ActionReadStateFirst = "read_state_first"
	// ActionUseFallbackPrefix prefixes the name of a fallback tool: "use_fallback:<tool>".
	ActionUseFallbackPrefix = "use_fallback:"
)

// Range is an allowed_values of the form {"minimum": …, "maximum": …}.
// Either bound may be nil when open.
type Range struct {
	Minimum any `json:"minimum,omitempty"`
	Maximum any `json:"maximum,omitempty"`
}

// RetryPolicy tells an orchestrator how to retry a retryable code.
type RetryPolicy struct {
	// Strategy is how to space attempts.
	Strategy RetryStrategy
	// BaseDelay is the first wait (wire: base_ms).
	BaseDelay time.Duration
	// MaxAttempts is the total number of attempts worth making, the first included.
	MaxAttempts int
	// IdempotencyRequired is true when a retry is only safe with an idempotency key.
	IdempotencyRequired bool
}

// RetryStrategy names how an orchestrator should space retries.
type RetryStrategy string

// The retry strategies.
const (
	// StrategyExponential: exponential backoff with full jitter from BaseDelay.
	StrategyExponential RetryStrategy = "exponential_backoff"
	// StrategyRetryAfter: wait retry_after_ms (BaseDelay when absent), then retry.
	StrategyRetryAfter RetryStrategy = "retry_after"
)

// Intent is what an interrupted operation had done when it was cancelled or
// timed out, so the agent knows the work may be in progress and how to check.
type Intent struct {
	// Operation names what was under way ("create_invoice").
	Operation string
	// ResourceID identifies the resource it touched, if known.
	ResourceID string
	// State is how far it got ("submitted", "may be in progress server-side").
	State string
	// Recovery is how to find out what happened ("poll GET /invoices/inv-123").
	Recovery string
}

// Upstream describes the downstream failure behind an error. Its fields are
// the vendor's, sanitized; the raw body and headers are never kept.
type Upstream struct {
	// Vendor names the downstream service ("stripe", "aws").
	Vendor string
	// Status is the downstream HTTP status, 0 when no response arrived.
	Status int
	// Code is the vendor's own error code.
	Code string
	// RequestID is the vendor's request id, for support tickets. It is
	// rendered only when it has the shape of a request id ([ValidRequestID])
	// once sanitized.
	RequestID string
	// Attempts is how many calls the service made to the downstream for
	// this failure, the first included, when its HTTP client retried
	// (retrygate.Transport records it, translate reports it); 0 when
	// unknown, and then it is not rendered.
	Attempts int
}

// Violation is one way a call's arguments break the tool's schema, as
// AIP-193's BadRequest.FieldViolation and RFC 9457's errors[] describe it.
type Violation struct {
	// Field is the JSON pointer (RFC 6901) of the offending value: "" for
	// the arguments as a whole, "/limit", "/items/2/sku". A missing property
	// is pointed at where it belongs.
	Field string
	// Reason says what is wrong, declaratively: "must be at most 100".
	Reason string
	// AllowedValues is what the schema accepts there: the enum, a [Range],
	// the pattern, format, type or const.
	AllowedValues any
	// SuggestedValue is a value derived deterministically from the one
	// sent that satisfies the schema there (a clamped number, the nearest
	// enum member, a reformatted date, the nearest property name); nil
	// when none can be derived.
	SuggestedValue any
}

// ItemError is the error of one item of a batch, at Index in the request.
type ItemError struct {
	// Index is the position of the failed item in the request, from 0.
	Index int
	// Err is the item's error; its request and trace ids are not rendered.
	Err *Error
}

// Error returns "CODE: detail". It is for Go logs; agents get the rendering.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Detail == "" {
		return e.Code
	}
	return e.Code + ": " + e.Detail
}

// Unwrap returns the Go cause set with [Error.WithCause], or nil.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.cause
}

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, &toolerr.Error{Code: "NOT_FOUND"}) matches any NOT_FOUND.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && e != nil && t != nil && t.Code != "" && t.Code == e.Code
}

// From finds an *Error anywhere in err's chain.
func From(err error) (*Error, bool) {
	// errors.AsType asserts along the chain; errors.As would check each
	// link by reflection, several times slower on the error path.
	if e, ok := errors.AsType[*Error](err); ok && e != nil {
		return e, true
	}
	return nil, false
}

// HasCode reports whether err's tree holds an *Error with the given code.
// The whole tree is searched, as errors.Is does: wrapped errors, every
// branch of errors.Join and multi-%w errors, and each *Error's own cause.
// An empty code matches nothing.
func HasCode(err error, code string) bool {
	return code != "" && errors.Is(err, &Error{Code: code})
}
