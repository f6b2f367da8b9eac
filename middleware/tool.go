package middleware

import (
	"net/http"
	"sync"

	"github.com/toolerr/toolerr"
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
func Tool(name string, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return toolHandler{name: name, h: h}
}

type toolHandler struct {
	name string
	h    func(http.ResponseWriter, *http.Request) error
}

// defaultHandler is the middleware that a Tool not mounted under New runs
// under: the default options, built once on first use.
var defaultHandler = sync.OnceValue(func() *handler { return newHandler(nil) })

// ServeHTTP runs the tool handler and hands its error to the middleware.
func (t toolHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := recorderFrom(r.Context())
	if rec == nil {
		defaultHandler().serve(w, r, t)
		return
	}
	rec.tool = t.name
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
	// Render now, through w, like any handler: middleware between New and
	// Tool (idempotency, logging) must see the error response. The
	// middleware captures it, and logs and counts it, when the chain
	// returns.
	m := rec.m
	e := m.complete(rec, r, m.fromError(r, err))
	toolerr.Write(w, r, e, toolerr.WithFormat(m.cfg.format), toolerr.WithRegistry(m.cfg.registry))
}
