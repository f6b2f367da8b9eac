package toolerr

import (
	"context"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// The request scope is the per-request state toolerr keeps in a context
// (package internal/reqscope): the ids errors of the request carry, and
// what the handler recorded as it went. The middleware starts it for every
// request it serves; a handler reads and records through the functions
// below, which do nothing without a scope.

// RequestID returns the request id of ctx's request scope, or "".
func RequestID(ctx context.Context) string { return reqscope.RequestID(ctx) }

// TraceID returns the trace id of ctx's request scope, or "".
func TraceID(ctx context.Context) string { return reqscope.TraceID(ctx) }

// WithRequestID returns a context carrying the request id that errors
// rendered for this request will carry. It keeps the trace id and the
// recordings ([RecordIntent], [RecordVendor]) of ctx's request scope.
func WithRequestID(ctx context.Context, id string) context.Context {
	return reqscope.WithRequestID(ctx, id)
}

// WithTraceID returns a context carrying a W3C trace id for errors rendered
// for this request. It keeps the request id and the recordings of ctx's
// request scope. The middleware stores the current span's id here.
func WithTraceID(ctx context.Context, id string) context.Context {
	return reqscope.WithTraceID(ctx, id)
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
// An empty operation clears the record. Without a request scope (no
// middleware serves the request) it does nothing.
func RecordIntent(ctx context.Context, operation, resourceID, state, recovery string) {
	if operation == "" {
		reqscope.ClearIntent(ctx)
		return
	}
	reqscope.RecordIntent(ctx, Intent{Operation: operation, ResourceID: resourceID, State: state, Recovery: recovery})
}

// RecordVendor names the downstream vendor ("stripe") whose response the
// handler is about to relay, so that a raw error response it writes is read
// with that vendor's translator. Without a request scope it does nothing.
func RecordVendor(ctx context.Context, vendor string) {
	reqscope.RecordVendor(ctx, vendor)
}
