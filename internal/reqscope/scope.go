// Package reqscope is the per-request state that toolerr keeps in a
// context: the ids the errors of a request carry, the text filters the
// middleware sets for them, and what the code serving the request records
// for the error path (the operation under way, the vendor relayed, the
// error toolerr.Write rendered). The root package reads and writes it
// through RequestID, TraceID, RecordIntent, RecordVendor and Write; the
// middleware, the MCP adapters and package idempotency use it directly.
//
// The package cannot import the root, which imports it: the error and the
// intent it records are held opaque, and the functions that return them
// take their type as a type argument (*toolerr.Error, toolerr.Intent).
package reqscope

import (
	"context"
	"sync"
)

// Scope is the request scope of one request. It is a context itself, so
// that a request scope costs one allocation; middleware that allocates
// per-request state of its own embeds a Scope in it and calls Init, and
// the state is the request's context, with no allocation for the scope.
// A Scope must not be copied after Init.
type Scope struct {
	context.Context
	requestID string
	traceID   string
	// rec is shared by every scope derived for the same request, so a
	// recording made under a derived context is seen by the middleware.
	rec *recordings
	own recordings
}

// recordings is what the code serving a request recorded for the error
// path (recordings.go). Safe for concurrent use.
type recordings struct {
	// hooks are the middleware's hooks for the request: set before the
	// request is served and never changed, so they are read without the
	// lock. One pointer, shared by every request the same middleware
	// serves, keeps the middleware's per-request state within its
	// allocation size class.
	hooks  *Hooks
	mu     sync.Mutex
	intent any // a *toolerr.Intent, or nil
	vendor string
	// written is the *toolerr.Error last rendered, or nil.
	written any
	// next is the func(*toolerr.Error) to call with the next error
	// recorded as written, once.
	next any
}

type scopeKey struct{}

// New returns a context that starts the request scope of one request over
// parent: it carries the request id and trace id that errors rendered for
// the request will carry, and receives what the handler records. It costs
// one allocation.
func New(parent context.Context, requestID, traceID string) context.Context {
	s := &Scope{}
	s.Init(parent, requestID, traceID)
	return s
}

// Init starts the request scope over parent with the request's ids, as
// [New] does.
func (s *Scope) Init(parent context.Context, requestID, traceID string) {
	s.Context, s.requestID, s.traceID = parent, requestID, traceID
	s.rec = &s.own
}

// Hooks are what the middleware serving a request does with what the
// request's code hands it: the text filters of its errors, and what to
// do with an unmapped downstream response.
type Hooks struct {
	// Clean is the function that toolerr.Write passes every string of an
	// error rendered for the request through (toolerr.Error.MapText): the
	// middleware sets its sanitizer here, so an error a handler renders
	// itself is sanitized like one it returns.
	Clean func(string) string
	// Redact is the function that [Redact] passes text of the request
	// through: text that must keep its shape and is kept or written
	// somewhere other than the agent's answer (a failure response stored
	// for replay by package idempotency). The middleware sets its
	// sanitizer's secret stage here.
	Redact func(string) string
	// Unmapped is told of every downstream response of the request that
	// no mapping explained ([ReportUnmapped]): the middleware counts it,
	// logs it and offers it to its sampler.
	Unmapped func(ctx context.Context, u UnmappedResponse)
}

// SetHooks sets the hooks of the request. Call it right after Init,
// before the request is served; they are shared by every context derived
// from the scope, and h must not change afterwards.
func (s *Scope) SetHooks(h *Hooks) {
	s.rec.hooks = h
}

// Value returns the scope for the scope key, else the parent's value.
func (s *Scope) Value(key any) any {
	if key == (scopeKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// of returns the innermost request scope of ctx, or nil.
func of(ctx context.Context) *Scope {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Value(scopeKey{}).(*Scope)
	return s
}

// WithRequestID returns a context carrying the request id that errors
// rendered for this request will carry. It keeps the trace id and the
// recordings of ctx's request scope.
func WithRequestID(ctx context.Context, id string) context.Context {
	s := &Scope{}
	s.Init(ctx, id, "")
	if p := of(ctx); p != nil {
		s.traceID, s.rec = p.traceID, p.rec
	}
	return s
}

// WithTraceID returns a context carrying a W3C trace id for errors
// rendered for this request. It keeps the request id and the recordings
// of ctx's request scope.
func WithTraceID(ctx context.Context, id string) context.Context {
	s := &Scope{}
	s.Init(ctx, "", id)
	if p := of(ctx); p != nil {
		s.requestID, s.rec = p.requestID, p.rec
	}
	return s
}

// RequestID returns the request id of ctx's request scope, or "".
func RequestID(ctx context.Context) string {
	if s := of(ctx); s != nil {
		return s.requestID
	}
	return ""
}

// TraceID returns the trace id of ctx's request scope, or "".
func TraceID(ctx context.Context) string {
	if s := of(ctx); s != nil {
		return s.traceID
	}
	return ""
}

// TextFilter returns the text filter of ctx's request scope
// ([Hooks.Clean]), or nil.
func TextFilter(ctx context.Context) func(string) string {
	if s := of(ctx); s != nil && s.rec.hooks != nil {
		return s.rec.hooks.Clean
	}
	return nil
}

// Redact returns text through the redact filter of ctx's request scope
// ([Hooks.Redact]); ok is false, and text is returned unchanged,
// when ctx has no scope or its scope no such filter.
func Redact(ctx context.Context, text string) (out string, ok bool) {
	if s := of(ctx); s != nil && s.rec.hooks != nil && s.rec.hooks.Redact != nil {
		return s.rec.hooks.Redact(text), true
	}
	return text, false
}
