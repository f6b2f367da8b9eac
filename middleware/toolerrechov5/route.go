package toolerrechov5

import (
	"sync"

	"github.com/labstack/echo/v5"
)

// The tool of a request is the template of the route echo's router matched
// ("/orders/:id"), whatever the method (a 405 names the route). No route
// matched when the path is empty (echo's router found nothing) or when the
// request reached only a route of e.RouteNotFound, which echo's groups also
// add when given middlewares ("/api/*"): such a request names no tool, and
// its 404 is TOOL_NOT_FOUND.

// maxKnownRoutes bounds the routeSet cache; past it, lookups scan.
const maxKnownRoutes = 4096

// routeKey is one method and template of one echo.
type routeKey struct {
	e            *echo.Echo
	method, path string
}

// routeSet remembers which templates a request reaches through a route of
// e.RouteNotFound only: finding out scans the echo's routes. Routes are
// expected to be registered before the echo serves, as echo expects.
type routeSet struct {
	mu    sync.RWMutex
	known map[routeKey]bool
}

// tool returns the tool name of c's request, or "" when no route matched.
func (rs *routeSet) tool(c *echo.Context) string {
	path := c.Path()
	if path == "" || rs.notFoundOnly(c.Echo(), c.Request().Method, path) {
		return ""
	}
	return path
}

// notFoundOnly reports whether a request of method reaches path through
// a route of e.RouteNotFound, no route of its method having that path.
func (rs *routeSet) notFoundOnly(e *echo.Echo, method, path string) bool {
	k := routeKey{e, method, path}
	rs.mu.RLock()
	v, ok := rs.known[k]
	rs.mu.RUnlock()
	if ok {
		return v
	}
	notFound, own := false, false
	for _, r := range e.Router().Routes() {
		if r.Path != path {
			continue
		}
		switch r.Method {
		case echo.RouteNotFound:
			notFound = true
		case method:
			own = true
		}
	}
	v = notFound && !own
	rs.mu.Lock()
	if rs.known == nil {
		rs.known = make(map[routeKey]bool)
	}
	if len(rs.known) < maxKnownRoutes {
		rs.known[k] = v
	}
	rs.mu.Unlock()
	return v
}
