package toolerr

import (
	"context"
	"sync"
)

// scope is the per-request state toolerr keeps in a context: the ids errors
// of the request carry, and what the handler recorded as it went. It is a
// context itself, so that a request scope costs one allocation.
type scope struct {
	context.Context
	requestID string
	traceID   string
	// rec is shared by every scope derived for the same request, so a
	// recording made under a derived context is seen by the middleware.
	rec *recordings
	own recordings
}

// recordings is what the code serving a request recorded for the error
// path. Safe for concurrent use.
type recordings struct {
	// clean is the text filter errors rendered for the request pass
	// through; set before the request is served and never changed, so it
	// is read without the lock.
	clean func(string) string
	// redact removes secrets from text that must keep its shape; set and
	// read as clean is.
	redact  func(string) string
	mu      sync.Mutex
	intent  *Intent
	vendor  string
	written *Error
	// next is called with the next error recorded as written, once
	// (scope_watch.go).
	next func(*Error)
}

type scopeKey struct{}

// newScope returns a scope over parent with its own recordings.
func newScope(parent context.Context, requestID, traceID string) *scope {
	s := &scope{Context: parent, requestID: requestID, traceID: traceID}
	s.rec = &s.own
	return s
}

// Value returns the scope for the scope key, else the parent's value.
func (s *scope) Value(key any) any {
	if key == (scopeKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// scopeOf returns the innermost request scope of ctx, or nil.
func scopeOf(ctx context.Context) *scope {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(scopeKey{}).(*scope)
	return s
}

// NewRequestContext returns a context that starts the request scope of one
// request: it carries the request id and trace id that errors rendered for
// the request will carry, and receives what the handler records with
// [RecordIntent] and [RecordVendor]. It costs one allocation. A handler
// running without a request scope can still call the Record… functions:
// they do nothing.
func NewRequestContext(ctx context.Context, requestID, traceID string) context.Context {
	return newScope(ctx, requestID, traceID)
}

// RequestScope is the request scope of [NewRequestContext] as a type, for
// middleware that allocates per-request state of its own: embed a
// RequestScope in that state and call Init, and the state is the request's
// context, with no allocation for the scope. The toolerr middleware does
// this. A RequestScope must not be copied after Init.
type RequestScope struct {
	scope
}

// Init starts the request scope over parent with the request's ids, as
// [NewRequestContext] does.
func (s *RequestScope) Init(parent context.Context, requestID, traceID string) {
	s.Context, s.requestID, s.traceID = parent, requestID, traceID
	s.rec = &s.own
}

// SetTextFilter sets the function that [Write] passes every string of an
// error rendered for this request through ([Error.MapText]): the
// middleware sets its sanitizer here, so an error a handler renders itself
// is sanitized like one it returns. Call it right after Init, before the
// request is served; it is shared by every context derived from the scope.
func (s *RequestScope) SetTextFilter(clean func(string) string) {
	s.rec.clean = clean
}

// SetRedactFilter sets the function that [Redact] passes text of the
// request through: text that must keep its shape and is kept or written
// somewhere other than the agent's answer (a failure response stored for
// replay by package idempotency). The middleware sets its sanitizer's
// secret stage here. Call it right after Init, before the request is
// served; it is shared by every context derived from the scope.
func (s *RequestScope) SetRedactFilter(redact func(string) string) {
	s.rec.redact = redact
}

// Redact returns text through the redact filter of ctx's request scope
// ([RequestScope.SetRedactFilter]); ok is false, and text is returned
// unchanged, when ctx has no scope or its scope no such filter.
func Redact(ctx context.Context, text string) (out string, ok bool) {
	if s := scopeOf(ctx); s != nil && s.rec.redact != nil {
		return s.rec.redact(text), true
	}
	return text, false
}

// textFilter returns the text filter of ctx's request scope, or nil.
func textFilter(ctx context.Context) func(string) string {
	if s := scopeOf(ctx); s != nil {
		return s.rec.clean
	}
	return nil
}

// RecordIntent records how far the operation under way in the request of ctx
// has got, replacing the previous record. If the request is then cancelled
// or times out, the middleware attaches the last record to the CANCELLED,
// TOOL_TIMEOUT or UPSTREAM_TIMEOUT error as its intent, so the agent knows
// the operation may already be in progress and how to check:
//
//	toolerr.RecordIntent(ctx, "create_invoice", "inv-123", "submitted to billing",
//		"GET /invoices/inv-123 before creating it again")
//
// An empty operation clears the record. Without a request scope
// ([NewRequestContext]) it does nothing.
func RecordIntent(ctx context.Context, operation, resourceID, state, recovery string) {
	s := scopeOf(ctx)
	if s == nil {
		return
	}
	var in *Intent
	if operation != "" {
		in = &Intent{Operation: operation, ResourceID: resourceID, State: state, Recovery: recovery}
	}
	s.rec.mu.Lock()
	s.rec.intent = in
	s.rec.mu.Unlock()
}

// RecordedIntent returns the last intent recorded with [RecordIntent] for
// the request of ctx.
func RecordedIntent(ctx context.Context) (Intent, bool) {
	s := scopeOf(ctx)
	if s == nil {
		return Intent{}, false
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	if s.rec.intent == nil {
		return Intent{}, false
	}
	return *s.rec.intent, true
}

// RecordVendor names the downstream vendor ("stripe") whose response the
// handler is about to relay, so that a raw error response it writes is read
// with that vendor's translator. Without a request scope it does nothing.
func RecordVendor(ctx context.Context, vendor string) {
	s := scopeOf(ctx)
	if s == nil {
		return
	}
	s.rec.mu.Lock()
	s.rec.vendor = vendor
	s.rec.mu.Unlock()
}

// RecordedVendor returns the vendor named with [RecordVendor], or "".
func RecordedVendor(ctx context.Context) string {
	s := scopeOf(ctx)
	if s == nil {
		return ""
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	return s.rec.vendor
}

// WrittenError returns the error [Write] last rendered for the request of
// ctx, with its Go cause, or nil. The middleware uses it to log and count an
// error that a handler wrote itself, without parsing the body back.
func WrittenError(ctx context.Context) *Error {
	s := scopeOf(ctx)
	if s == nil {
		return nil
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	return s.rec.written
}

// recordWritten notes e as rendered for the request of ctx.
func recordWritten(ctx context.Context, e *Error) {
	s := scopeOf(ctx)
	if s == nil {
		return
	}
	s.rec.mu.Lock()
	s.rec.written = e
	next := s.rec.next
	s.rec.next = nil
	s.rec.mu.Unlock()
	if next != nil {
		next(e)
	}
}
