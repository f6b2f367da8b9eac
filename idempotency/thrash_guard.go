package idempotency

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// ThrashGuard returns middleware that refuses a call that keeps failing
// the same way: when the same caller (its principal, see [WithPrincipal])
// sends the same tool (the method, path and query; [WithTool] names it in
// a refusal only when no toolerr middleware does) the same arguments
// (canonical JSON, as [Key] derives, when declared JSON) and
// the call failed [WithThrashAfter] times in a row (default 2) with the
// same non-retryable code within the window ([WithThrashWindow], default
// 10 minutes), the next identical call is not run. It gets
// REPEATED_FAILURE (409, policy, not retryable) whose details say which
// code kept failing (repeated_code), how often (failures) and the window
// (window_ms), and whose detail tells the agent to change the arguments,
// use a fallback tool if one is offered, or ask the user.
//
// What counts: a failure whose error is not retryable (NOT_FOUND,
// VALIDATION_FAILED, PERMISSION_DENIED, …) adds one to the call's run; a
// failure with another code starts a new run of 1; a success of the
// identical call clears it. A retryable failure (a rate limit, a 503) is
// the retry logic's business (retrygate) and counts for nothing, nor does
// a cancellation or a refusal of the guard. A call with other arguments
// is another call, and runs. Anonymous calls (no principal) are not
// guarded, unless [SharedAnonymousScope]; MCP requests are left to the
// MCP adapters, which guard each tool call ([ThrashCalls]).
//
// Mount it inside the toolerr middleware (middleware.New, then
// ThrashGuard, then the handlers), so that it learns each failure's code
// however it was reported:
//
//   - an error a middleware.Tool handler returned, or that a handler
//     rendered with toolerr.Write, is known when the handler returns
//     (the request scope records the error toolerr.Write rendered);
//   - a toolerr error body (problem+json or envelope) the guard saw
//     pass is parsed;
//   - a raw error response (an HTML page, a vendor's JSON) and an error a
//     framework adapter reported (middleware.ReportError) are rendered by
//     the toolerr middleware after the guard returned: the guard counts
//     the error it renders, which toolerr.Write hands the guard.
//
// Without the toolerr middleware, only the first two are seen; a raw
// error response counts for nothing.
//
// The counts live in counter, so that the guard holds across replicas
// when they share it (the Redis store, package redisstore); nil means a
// new [MemoryStore]. While a counter that implements [RunsWatcher] (both
// stores do) holds no run of failures, a call is not looked up: the
// guard keeps a copy of the body as the handler reads it and the status
// it writes, and keys and counts the call only if it fails. A store that
// cannot be reached within
// [WithStoreTimeout] lets the call through, with a log line: the guard
// never blocks a tool. The handler reads the body exactly as sent; a body
// over [WithMaxBody] is not compared, and goes through.
func ThrashGuard(counter FailureCounter, opts ...Option) func(http.Handler) http.Handler {
	t := newThrash(counter, opts)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { t.serve(w, r, next) })
	}
}

// serve refuses a call that keeps failing, or runs it and counts how it
// ended.
func (t *thrash) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if mcpRequest(r) { // mcp_request.go
		next.ServeHTTP(w, r)
		return
	}
	if t.idle() {
		t.serveIdle(w, r, next) // thrash_idle.go
		return
	}
	principal := t.cfg.principal(r)
	if principal == "" && !t.cfg.sharedAnon {
		next.ServeHTTP(w, r) // anonymous callers cannot be told apart
		return
	}
	body, err := readBody(r, t.cfg.maxBody)
	if err != nil {
		next.ServeHTTP(w, r) // too large to compare, or unreadable
		return
	}
	key := t.requestKey(r, principal, body)
	ctx := r.Context()
	prior, refusal, ok := t.before(ctx, key, "")
	if refusal != nil {
		if toolerr.RequestID(ctx) == "" {
			refusal = refusal.WithTool(t.cfg.tool(r)) // no toolerr middleware to name it
		}
		toolerr.Write(w, r, refusal, toolerr.WithFormat(t.cfg.format), toolerr.WithRegistry(t.cfg.registry))
		return
	}
	if !ok {
		next.ServeHTTP(w, r)
		return
	}
	before := reqscope.Written[*toolerr.Error](ctx)
	sw := &statusWriter{w: w}
	next.ServeHTTP(sw, r)
	t.settle(ctx, key, prior, sw, before)
}

// requestKey is the counter's key of an HTTP call: its principal, method,
// path and query, and body (canonical JSON when declared JSON). The method
// and path name the tool: no two routes share them. The host is left out:
// replicas are reached under different ones.
func (t *thrash) requestKey(r *http.Request, principal string, body []byte) string {
	if canonical, err := Canonicalize(body); err == nil && declaredJSON(r) {
		body = canonical
	}
	return t.key(principal, r.Method+" "+r.URL.RequestURI(), body)
}

// settle counts how a call that ran ended, from what its handler wrote
// (sw) and the error rendered for it: a success clears the run, a failure
// counts, by the error [toolerr.Write] rendered while the handler ran
// (unless it is before, rendered earlier), else the toolerr error body
// the handler wrote, else the error the toolerr middleware renders next.
func (t *thrash) settle(ctx context.Context, key string, prior Failures, sw *statusWriter, before *toolerr.Error) {
	switch written := reqscope.Written[*toolerr.Error](ctx); {
	case sw.hijacked:
	case sw.status != 0 && sw.status < 400:
		t.after(ctx, key, prior, nil)
	case written != before && written != nil:
		t.after(ctx, key, prior, written)
	case sw.status >= 400 && parsed(sw.body) != nil:
		t.after(ctx, key, prior, parsed(sw.body))
	default:
		t.afterMiddleware(ctx, key, prior, sw.status)
	}
}

// afterMiddleware counts the failure of a call whose handler wrote a raw
// error response, or nothing: the toolerr middleware renders the failure
// after the guard returned, and the guard counts the error it renders.
// Nothing written and nothing rendered is a success (an empty 200), known
// once the request is done: its run, if it has one, is cleared then, off
// the request's path. Without the toolerr middleware, nothing written is
// a success, and a raw error response counts for nothing.
func (t *thrash) afterMiddleware(ctx context.Context, key string, prior Failures, status int) {
	var rendered atomic.Bool
	scoped := reqscope.OnNextWritten(ctx, func(e *toolerr.Error) {
		rendered.Store(true)
		t.after(ctx, key, prior, e)
	})
	switch {
	case status != 0:
	case !scoped:
		t.after(ctx, key, prior, nil)
	case prior.Count > 0:
		context.AfterFunc(ctx, func() {
			if !rendered.Load() {
				t.after(ctx, key, prior, nil)
			}
		})
	}
}

// parsed returns the toolerr error body is a rendering of, or nil.
func parsed(body []byte) *toolerr.Error {
	if len(body) == 0 {
		return nil
	}
	e, err := toolerr.Parse(body)
	if err != nil {
		return nil
	}
	return e
}
