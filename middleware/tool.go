package middleware

import (
	"net/http"
	"sync"
)

// Tool adapts a handler that returns an error to http.Handler, under the
// tool name name. A nil error means the handler wrote its response. A
// non-nil error is rendered by the middleware as the response, in place of
// anything the handler wrote with a status of 400 or more:
//
//   - a *toolerr.Error anywhere in the chain is used as is, its text
//     members sanitized;
//   - a Go error the classifier knows (a timeout, a refused connection, a
//     cancelled context) is classified;
//   - anything else becomes INTERNAL_ERROR; its text goes to the log only.
//
// If the handler had already sent a response below 400, the error is
// logged and counted and the response is left as it is.
//
// Mounted under [New], Tool uses that middleware's options. Used without
// it, Tool runs under a middleware with the default options.
//
// mws are middlewares of this tool alone (idempotency, a rate limit), run
// in order, outermost first, between the adapter and h: the request is
// named before they run, so an error they answer with carries the tool's
// name even on routers the middleware cannot ask (see [WithToolName]).
func Tool(name string, h func(http.ResponseWriter, *http.Request) error, mws ...func(http.Handler) http.Handler) http.Handler {
	return newToolHandler(name, h, mws)
}

// ToolFunc is [Tool] as an http.HandlerFunc, the form chi's r.Get and
// r.Post accept:
//
//	r.Post("/tools/refund", middleware.ToolFunc("refund", refund))
func ToolFunc(name string, h func(http.ResponseWriter, *http.Request) error, mws ...func(http.Handler) http.Handler) http.HandlerFunc {
	return newToolHandler(name, h, mws).ServeHTTP
}

// toolHandler is a Tool adapter. It is comparable by nothing: the
// middleware recognises it by its type, or a ToolFunc by its code pointer.
type toolHandler struct {
	name  string
	h     func(http.ResponseWriter, *http.Request) error
	chain http.Handler // the tool's own middlewares around run; nil without
}

// newToolHandler builds the adapter of h with its middlewares.
func newToolHandler(name string, h func(http.ResponseWriter, *http.Request) error, mws []func(http.Handler) http.Handler) toolHandler {
	t := toolHandler{name: name, h: h}
	if len(mws) == 0 {
		return t
	}
	var chain http.Handler = http.HandlerFunc(t.run)
	for i := len(mws) - 1; i >= 0; i-- {
		if mws[i] != nil {
			chain = mws[i](chain)
		}
	}
	t.chain = chain
	return t
}

// defaultHandler is the middleware that a Tool not mounted under New runs
// under: the default options, built once on first use.
var defaultHandler = sync.OnceValue(func() *handler { return newHandler(nil) })

// ServeHTTP runs the tool handler and hands its error to the middleware.
func (t toolHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := recorderFrom(r.Context())
	if rec == nil {
		if name, ok := r.Context().Value(toolProbeKey{}).(*string); ok {
			*name = t.name // the middleware asks the name; nothing runs
			return
		}
		defaultHandler().serve(w, r, t)
		return
	}
	rec.tool = t.name
	if t.chain != nil {
		t.chain.ServeHTTP(w, r)
		return
	}
	t.run(w, r)
}

// run calls the tool handler and hands its error to the middleware of r.
func (t toolHandler) run(w http.ResponseWriter, r *http.Request) {
	rec := recorderFrom(r.Context())
	if rec == nil {
		// A middleware of the tool replaced the request's context with one
		// not derived from it: serve h under a middleware of its own.
		defaultHandler().serve(w, r, http.HandlerFunc(t.run))
		return
	}
	err := t.h(w, r)
	if err == nil {
		return
	}
	if rec.started || rec.capturing || rec.hijacked {
		// Something went out, or an error status was held back: the
		// middleware replaces it with this error, or logs it.
		rec.err = err
		return
	}
	// Render now, once, and send the rendering through w like any
	// handler's response: middleware between New and Tool (idempotency,
	// logging) must see the error response. The recorder keeps the
	// rendering; when the chain has passed it on, the middleware sends it
	// to the client and records it without building it again (failure.go).
	m := rec.m
	e := m.annotate(rec, r, m.fromError(r, err), true, false)
	rd := m.render(rec, w, r, e)
	rec.fail.rendered = rd
	w.WriteHeader(rd.status)
	_, _ = w.Write(rd.body)
}
