package toolerrecho

import (
	"reflect"

	"github.com/labstack/echo/v4"
)

// routed reports whether echo's router found a route for c's request's
// path, whatever its method: c.Path() is then the route's template, the
// tool's name. A request no route matches runs echo.NotFoundHandler with an
// empty path, or with the path of the nearest node of the router's tree,
// which names no tool. A route registered with e.RouteNotFound counts as a
// route: its handler decides what its 404 means.
func routed(c echo.Context) bool {
	if c.Path() == "" {
		return false
	}
	h := c.Handler()
	return h != nil && reflect.ValueOf(h).Pointer() != reflect.ValueOf(echo.NotFoundHandler).Pointer()
}
