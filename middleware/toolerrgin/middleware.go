package toolerrgin

import (
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"

	"github.com/toolerr/toolerr/middleware"
)

// Middleware returns the toolerr middleware for gin, built once from opts
// (the options of [middleware.New]):
//
//	r := gin.New()
//	r.Use(toolerrgin.Middleware())
//
// For each request it runs the handlers behind it (c.Next) under
// middleware.New: c.Writer becomes a gin.ResponseWriter over the
// middleware's recorder and c.Request the request the middleware passes
// on (its context carries the ids: toolerr.RequestID, toolerr.TraceID).
// The tool is named after the route (c.FullPath(), "/orders/:id"), set as
// the request's Pattern, unless a [Tool] adapter or the WithToolName
// option names it. When the handlers return, the most specific
// error in c.Errors is handed to the middleware (see [Error mapping] in
// the package doc), which renders it once, in place of anything written
// with a status of 400 or more. Everything else is the core middleware's:
// responses below 400 pass through, raw error responses are captured,
// classified and sanitized, panics become INTERNAL_ERROR.
//
// A request no route matched (gin's NoRoute) that ends in a 404 is
// TOOL_NOT_FOUND, listing the engine's nearest routes (see [Routes]); one whose path has routes for other methods (NoMethod,
// with HandleMethodNotAllowed) is METHOD_NOT_ALLOWED with gin's Allow
// header. gin runs r.Use middleware for both.
//
// Mount it before the handlers it covers; gin.Recovery, a request-id
// middleware and otelgin may stand on either side of it (otelgin before
// it, so that errors carry the span's trace id).
//
// Middleware also decorates gin's struct validator, binding.Validator,
// with [Validator], once, where gin's docs replace it: gin's own binding
// calls (c.Bind, c.ShouldBindJSON) then report the json names of the
// fields that failed, not the Go names, with no change to what validates.
// This is a process-wide setting, like any change of binding.Validator:
// call Middleware at setup, as r.Use is, before the engine serves. A
// validator installed after Middleware replaces the decoration; decorate
// it with Validator to keep the json names.
func Middleware(opts ...middleware.Option) gin.HandlerFunc {
	decorateValidator()
	a := newAdapter(opts)
	return func(c *gin.Context) { a.serve(c, nil) }
}

// validatorSwap serializes the decorations of binding.Validator made by
// Middleware calls (gin reads the variable without a lock, so it is set
// at setup only).
var validatorSwap sync.Mutex

// decorateValidator decorates binding.Validator with [Validator], unless
// it is decorated already or nil.
func decorateValidator() {
	validatorSwap.Lock()
	defer validatorSwap.Unlock()
	if v := binding.Validator; v != nil {
		if _, ok := v.(structValidator); !ok {
			binding.Validator = Validator(v)
		}
	}
}

// adapter is one configured Middleware: the core middleware, wrapped
// around a handler that finds the request's gin context in the writer it
// is given. It is immutable and shared by all requests.
type adapter struct {
	h http.Handler
}

// newAdapter builds an adapter from the core middleware's options.
func newAdapter(opts []middleware.Option) *adapter {
	return &adapter{h: middleware.New(opts...)(http.HandlerFunc(inner))}
}

// defaultAdapter serves a [Tool] that no Middleware covers: the default
// options, built once on first use.
var defaultAdapter = sync.OnceValue(func() *adapter { return newAdapter(nil) })

// call is the state of one request through the adapter: one allocation.
type call struct {
	c    *gin.Context
	run  func() // a lone Tool's handler; nil: c.Next
	b    below
	a    above
	ran  bool       // run returned: no panic unwound through it
	tool *gin.Error // the error a Tool adapter returned, reported first
	args *boundArgs // the arguments bound with ShouldBindJSON; nil until then
	// bindErr is the error ShouldBindJSON or ShouldBindWith returned.
	bindErr error
	// noRoute: no route matched the request (gin's NoRoute handlers run).
	noRoute bool
	// body keeps what the handlers read of a JSON request body
	// (kept_body.go).
	body keptBody
}

// serve runs run, the handlers behind the adapter, under the middleware;
// nil runs c.Next (a method value would cost every request an
// allocation).
func (ad *adapter) serve(c *gin.Context, run func()) {
	cl := &call{c: c, run: run}
	cl.b = below{ResponseWriter: c.Writer, call: cl}
	cl.noRoute = c.FullPath() == "" && !c.Writer.Written() && c.Writer.Status() == http.StatusNotFound
	// The route's pattern is the request's, as Go's ServeMux sets it: the
	// middleware names the tool after it when no Tool adapter or
	// WithToolName function does, and knows the route matched (a 404 of
	// it is not TOOL_NOT_FOUND). Restored after: the request is the
	// server's.
	req := c.Request
	saved := req.Pattern
	if p := c.FullPath(); p != "" {
		req.Pattern = p
	}
	body := req.Body
	if keepsBody(req) {
		cl.body.rc = body
		req.Body = &cl.body
	}
	ad.h.ServeHTTP(&cl.b, req)
	req.Pattern, req.Body = saved, body
	cl.a.done = true
	if !cl.ran {
		// A panic unwound the handlers and the middleware answered it:
		// gin must not run the handlers after the one that panicked.
		c.Abort()
	}
}

// inner is the handler the middleware runs: the gin handlers behind the
// adapter, with c.Writer and c.Request the middleware's.
func inner(w http.ResponseWriter, r *http.Request) {
	cl := callOf(w)
	if cl == nil {
		return // not reached: the adapter hands the middleware a below
	}
	c := cl.c
	cl.a.reset(cl, w, cl.b.ResponseWriter)
	c.Writer, c.Request = &cl.a, r
	ctx := r.Context()
	if cl.run != nil {
		cl.run()
	} else {
		c.Next()
	}
	cl.ran = true
	cl.finish(ctx)
	redactErrors(ctx, c) // errors_redacted.go
}

// callOf finds the call in the writer the middleware passed on: its
// recorder, whose Unwrap leads to below, or below itself.
func callOf(w http.ResponseWriter) *call {
	for range 8 {
		if b, ok := w.(*below); ok {
			return b.call
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
	return nil
}
