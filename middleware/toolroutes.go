package middleware

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/nearest"
)

// Nearest tool routes: a call to a path no route matches (TOOL_NOT_FOUND)
// lists, in allowed_values, the routes of the service the call most
// plausibly meant, and names one in suggested_value when a single one is
// that close: "POST /tools/search_orders" for a POST to
// /tools/search_order.

// Bounds on the search for the nearest routes: a request path over
// maxRoutePathLen bytes gets none, only the first maxToolRoutes routes
// are compared, and at most maxNearRoutes are listed.
const (
	maxRoutePathLen = 512
	maxToolRoutes   = 1024
	maxNearRoutes   = 5
)

// WithToolRoutes sets the routes of the service's tools, for the error of
// a call to a path no route matches: TOOL_NOT_FOUND then lists the nearest
// routes that accept the call's method in allowed_values, best first (at
// most 5), and, when one alone is plausibly meant (equal but for case or
// separators, or a small edit away: see argcheck.NearestNames), names it
// in suggested_value as well. Each value is "METHOD /path", a route as the
// service declares it ("GET /orders/{id}"), with the call's method when
// the route accepts any. Routes not plausibly related are never listed:
// allowed_values is then absent, as is every member a call to an
// unrelated path would get. field is not set: the route is not an
// argument of the call.
//
// routes returns the routes as Go 1.22 ServeMux patterns: "METHOD /path"
// or "/path" for every method, an optional host before the path
// (dropped: it is never shown), path parameters in any router's syntax
// ("{id}", ":id", "*"). It is called on each such error (404s are the
// failure path), from the request's goroutine, and must be safe for
// concurrent use; only the first 1024 routes are compared, and a request
// path over 512 bytes is compared with none. The request's path is never
// shown: only routes are. Leave out routes an agent must not learn of.
//
// Default: chi's routes when the middleware is mounted in a chi router or
// wraps one ([ChiRoutes] of that router), else the routes a framework
// adapter reports ([ReportRoutes]: toolerrgin, toolerrecho,
// toolerrechov5), else none: net/http's ServeMux cannot list its
// patterns, so give them with [Routes]. A nil routes turns the listing
// off.
func WithToolRoutes(routes func() []string) Option {
	return func(c *config) { c.toolRoutes, c.toolRoutesSet = routes, true }
}

// Routes returns a [WithToolRoutes] function that lists patterns, the
// ones registered on a net/http ServeMux (which cannot list them itself):
//
//	mux := http.NewServeMux()
//	mux.Handle("POST /tools/search_orders", searchOrders)
//	mux.Handle("GET /orders/{id}", getOrder)
//	handler := middleware.New(middleware.WithToolRoutes(middleware.Routes(
//		"POST /tools/search_orders",
//		"GET /orders/{id}",
//	)))(mux)
func Routes(patterns ...string) func() []string {
	patterns = slices.Clone(patterns)
	return func() []string { return patterns }
}

// ChiRoutes returns a [WithToolRoutes] function that lists the routes of
// r, a chi router, with chi.Walk: "METHOD /pattern", in sorted order, sub-
// routers and mounts included. The middleware finds the routes of the chi
// router it is mounted in, or wraps, without it: ChiRoutes is for a
// filtered list, or a router the middleware cannot see.
func ChiRoutes(r chi.Routes) func() []string {
	return func() []string {
		var out []string
		_ = chi.Walk(r, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
			out = append(out, method+" "+route)
			return nil
		}) // the walk function returns no error
		slices.Sort(out)
		return out
	}
}

// ReportRoutes gives the middleware serving the request of ctx the routes
// of the router that found no route for it, for framework adapters that
// can list them (gin's engine.Routes, echo's Routes): a TOOL_NOT_FOUND
// error of the request lists the nearest, as [WithToolRoutes] describes.
// routes is called at most once, after the handler returns, and only for
// such an error. A WithToolRoutes option of the middleware takes
// precedence. It reports false, and does nothing, when no toolerr
// middleware serves the request, routes is nil, or the middleware has
// returned. Call it from the goroutine serving the request.
func ReportRoutes(ctx context.Context, routes func() []string) bool {
	rec := recorderFrom(ctx)
	if rec == nil || routes == nil || rec.detached {
		return false
	}
	rec.failure().routes = routes
	return true
}

// withNearestRoutes returns e, when it is the TOOL_NOT_FOUND of a request
// no route matched, with the routes nearest the request's in its
// allowed_values and suggested_value; else e.
func (m *handler) withNearestRoutes(rec *recorder, r *http.Request, e *toolerr.Error) *toolerr.Error {
	if e.Code != toolerr.CodeToolNotFound || e.AllowedValues != nil || e.SuggestedValue != nil ||
		r.URL == nil || len(r.URL.Path) > maxRoutePathLen {
		return e
	}
	if matched, known := routeMatched(rec, r, rec.next); matched && known {
		return e // a handler's TOOL_NOT_FOUND: the router found a route
	}
	list := m.routeList(rec, r)
	if list == nil {
		return e
	}
	near, suggested := nearestRoutes(r.Method, r.URL.Path, m.callRoutes(list))
	if len(near) == 0 {
		return e
	}
	e = e.WithAllowedValues(near)
	if suggested != "" {
		e = e.WithSuggestedValue(suggested)
	}
	return e
}

// routeList returns the function listing the service's routes: the
// WithToolRoutes option's, else the one a framework adapter reported, else
// that of the chi router serving the request or wrapped by the
// middleware; nil when there is none.
func (m *handler) routeList(rec *recorder, r *http.Request) func() []string {
	if m.cfg.toolRoutesSet {
		return m.cfg.toolRoutes
	}
	if f := rec.fail; f != nil && f.routes != nil {
		return f.routes
	}
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.Routes != nil {
		return ChiRoutes(rc.Routes)
	}
	if routes, ok := rec.next.(chi.Routes); ok {
		return ChiRoutes(routes)
	}
	return nil
}

// callRoutes calls list; a panic in it costs the error its routes, not the
// request its response.
func (m *handler) callRoutes(list func() []string) (routes []string) {
	defer func() {
		if v := recover(); v != nil {
			m.cfg.logger.Warn("toolerr: the tool routes function panicked; TOOL_NOT_FOUND lists no routes",
				slog.String("panic", m.cfg.sanitizer.Redact(fmt.Sprint(v))))
			routes = nil
		}
	}()
	return list()
}

// toolRoute is a route parsed from its pattern.
type toolRoute struct {
	method string // "" for every method
	path   string // from its first "/", host dropped
}

// parseRoute parses a pattern "[METHOD ][HOST]/PATH"; false when it is not
// one, or is too long, or holds control characters.
func parseRoute(pattern string) (toolRoute, bool) {
	pattern = strings.TrimSpace(pattern)
	if pattern == "" || len(pattern) > maxRoutePathLen || !utf8.ValidString(pattern) {
		return toolRoute{}, false
	}
	var rt toolRoute
	if method, rest, ok := strings.Cut(pattern, " "); ok {
		if !methodToken(method) {
			return toolRoute{}, false
		}
		rt.method, pattern = method, strings.TrimLeft(rest, " \t")
	}
	slash := strings.IndexByte(pattern, '/')
	if slash < 0 {
		return toolRoute{}, false
	}
	rt.path = pattern[slash:]
	for _, c := range rt.path {
		if c < 0x20 || c == 0x7f || c == ' ' {
			return toolRoute{}, false
		}
	}
	return rt, true
}

// accepts reports whether the route takes requests of method: its own,
// any when it names none, and HEAD when it is GET (as ServeMux does).
func (rt toolRoute) accepts(method string) bool {
	return rt.method == "" || rt.method == method || rt.method == http.MethodGet && method == http.MethodHead
}

// nearestRoutes returns the routes among patterns nearest a request of
// method to path, as "METHOD /path", best first, and the one suggested;
// none for a method no route can name (see [methodToken]).
func nearestRoutes(method, path string, patterns []string) (near []string, suggested string) {
	if !methodToken(method) {
		return nil, "" // not a method a route names: nothing to compare
	}
	segments := strings.Split(path, "/")
	var routes []toolRoute
	var keys []string
	for _, p := range patterns[:min(len(patterns), maxToolRoutes)] {
		rt, ok := parseRoute(p)
		if !ok || !rt.accepts(method) {
			continue
		}
		key := routeKey(rt.path, segments)
		if key == path {
			continue // it matches: a route the router did not take is no better
		}
		routes, keys = append(routes, rt), append(keys, key)
	}
	if len(keys) == 0 {
		return nil, ""
	}
	cut := sharedDirs(path, keys)
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k[cut:]
	}
	nearNames, suggestedName := nearest.Names(path[cut:], names, maxNearRoutes)
	for _, n := range nearNames {
		i := slices.Index(names, n) // the first route of a key
		m := routes[i].method
		if m == "" {
			m = method
		}
		v := m + " " + routes[i].path
		if slices.Contains(near, v) {
			continue
		}
		near = append(near, v)
		if n == suggestedName {
			suggested = v
		}
	}
	return near, suggested
}

// routeKey is the route's path as the request would spell it: each path
// parameter ("{id}", ":id") replaced by the request's segment at its
// place, so that "/orders/{id}" is compared with "/order/42" as
// "/orders/42". Wildcards ("*", "{rest...}") stay, and ServeMux's "{$}"
// goes.
func routeKey(path string, request []string) string {
	if !strings.ContainsAny(path, "{:") {
		return path
	}
	segs := strings.Split(path, "/")
	for i, s := range segs {
		switch {
		case s == "{$}":
			segs[i] = ""
		case strings.HasSuffix(s, "...}"):
		case i < len(request) && request[i] != "" &&
			(strings.HasPrefix(s, ":") || strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")):
			segs[i] = request[i]
		}
	}
	return strings.Join(segs, "/")
}

// sharedDirs returns the length of the leading directories ("/tools/")
// that path and every key share, short of the last segment of any: they
// say nothing about which route is meant, and would make every name
// look long.
func sharedDirs(path string, keys []string) int {
	n := len(path)
	for _, k := range keys {
		i := 0
		for i < n && i < len(k) && path[i] == k[i] {
			i++
		}
		n = i
	}
	for n > 0 {
		cut := strings.LastIndexByte(path[:n], '/') + 1
		if cut < len(path) && !slices.ContainsFunc(keys, func(k string) bool { return cut >= len(k) }) {
			return cut
		}
		n = cut - 1
	}
	return 0
}
