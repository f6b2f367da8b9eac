package middleware

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
)

// Tool names: every response and metric of one endpoint carries one name.
// The name is resolved when an error needs it, not when the request
// starts, so that a middleware which answers before the Tool adapter runs
// (idempotency's IDEMPOTENCY_KEY_REUSED, a rate limiter's 429) reports the
// name that adapter would have given. In turn:
//
//  1. the name of the [Tool] or [ToolFunc] adapter that ran;
//  2. the [WithToolName] function, when set and not empty;
//  3. the name of the Tool adapter the request's route leads to, found
//     without running it: chi's routes, or the ServeMux the middleware
//     wraps, are asked for the route's handler;
//  4. the route pattern: chi's (asked again when the middleware runs
//     before chi routes), or Go 1.22 ServeMux's r.Pattern without its
//     method;
//  5. none.

// toolOf resolves the tool name of r (see above) and remembers it on rec.
func (m *handler) toolOf(rec *recorder, r *http.Request) string {
	if rec.tool != "" {
		return rec.tool
	}
	if m.cfg.toolName != nil {
		if name := m.cfg.toolName(r); name != "" {
			return name
		}
	}
	name, adapter := m.routeTool(rec, r)
	if adapter {
		rec.tool = name
	}
	return name
}

// routeTool returns the name of the Tool adapter r's route leads to
// (adapter true) or else the route's pattern.
func (m *handler) routeTool(rec *recorder, r *http.Request) (name string, adapter bool) {
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	var routes chi.Routes
	pattern := ""
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.Routes != nil {
		routes, pattern = rc.Routes, rc.RoutePattern()
	} else if cr, ok := rec.next.(chi.Routes); ok {
		routes = cr
	}
	if routes != nil {
		if pattern == "" || strings.HasSuffix(pattern, "*") {
			// Not routed yet (the middleware runs before chi routes), or
			// routing stopped at a mount: ask the router.
			pattern = routes.Find(chi.NewRouteContext(), r.Method, path)
		}
		if pattern != "" {
			if name, ok := m.names.chiTool(routes, r.Method, pattern); ok {
				return name, true
			}
			return pattern, false
		}
	}
	if mux, ok := rec.next.(*http.ServeMux); ok {
		h, p := mux.Handler(r)
		if p != "" {
			if name, ok := adapterName(h); ok {
				return name, true
			}
		}
		return patternPath(p), false
	}
	return patternPath(r.Pattern), false
}

// patternPath returns a ServeMux pattern without its method:
// "POST /tools/refund" is "/tools/refund".
func patternPath(p string) string {
	if i := strings.IndexByte(p, ' '); i >= 0 {
		return strings.TrimLeft(p[i+1:], " \t")
	}
	return p
}

// chiEndpoint returns the handler chi routes method and pattern to,
// without its inline middlewares, or nil.
func chiEndpoint(routes chi.Routes, method, pattern string) http.Handler {
	var found http.Handler
	_ = chi.Walk(routes, func(m, route string, h http.Handler, _ ...func(http.Handler) http.Handler) error {
		if found == nil && m == method && route == pattern {
			found = h
		}
		return nil
	})
	return found
}

// endpointKey names one route of one chi router.
type endpointKey struct {
	mux             *chi.Mux
	method, pattern string
}

// toolNames remembers the tool names of chi routes: finding a route's
// handler walks the router. Routes of other routers, and of a ServeMux
// (whose handler lookup is cheap), are not remembered.
type toolNames struct {
	mu    sync.Mutex
	known map[endpointKey]string // "" when the route's handler is no Tool adapter
}

// maxKnownEndpoints bounds the toolNames cache; past it, lookups walk.
const maxKnownEndpoints = 4096

// chiTool returns the tool name of the Tool adapter chi routes method and
// pattern to.
func (n *toolNames) chiTool(routes chi.Routes, method, pattern string) (string, bool) {
	mux, cacheable := routes.(*chi.Mux)
	key := endpointKey{mux, method, pattern}
	if cacheable {
		n.mu.Lock()
		name, ok := n.known[key]
		n.mu.Unlock()
		if ok {
			return name, name != ""
		}
	}
	name := ""
	if h := chiEndpoint(routes, method, pattern); h != nil {
		name, _ = adapterName(h)
	}
	if cacheable {
		n.mu.Lock()
		if n.known == nil {
			n.known = make(map[endpointKey]string)
		}
		if len(n.known) < maxKnownEndpoints {
			n.known[key] = name
		}
		n.mu.Unlock()
	}
	return name, name != ""
}

// toolFuncCode returns the code pointer every ToolFunc adapter shares: that
// of the method value toolHandler.ServeHTTP.
func toolFuncCode() uintptr {
	return reflect.ValueOf(toolHandler{}.ServeHTTP).Pointer()
}

// toolProbeKey is the context key under which a probe asks a ToolFunc
// adapter its name instead of running it.
type toolProbeKey struct{}

// withProbe returns ctx carrying a probe that receives a Tool adapter's name.
func withProbe(ctx context.Context, name *string) context.Context {
	return context.WithValue(ctx, toolProbeKey{}, name)
}

// adapterName returns the name of a Tool or ToolFunc adapter h, without
// running its handler.
func adapterName(h http.Handler) (string, bool) {
	switch t := h.(type) {
	case toolHandler:
		return t.name, true
	case http.HandlerFunc:
		if t == nil || reflect.ValueOf(t).Pointer() != toolFuncCode() {
			return "", false
		}
		// A ToolFunc: a method value of toolHandler, whose name only a
		// call can tell. The probe returns before anything runs.
		var name string
		probe, _ := http.NewRequest(http.MethodGet, "/", nil)
		t(nil, probe.WithContext(withProbe(probe.Context(), &name)))
		return name, name != ""
	}
	return "", false
}
