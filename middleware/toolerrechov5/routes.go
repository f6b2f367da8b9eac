package toolerrechov5

import (
	"github.com/labstack/echo/v5"
)

// Routes returns a middleware.WithToolRoutes function that lists the
// routes of e's router, "METHOD /path" ("GET /orders/:id"), its not-found
// routes left out, for the TOOL_NOT_FOUND of a path no route matches to
// name the nearest. Middleware lists the routes of the echo serving the
// request without it (c.Echo()): Routes is for a filtered list, passed to
// Middleware as middleware.WithToolRoutes(toolerrechov5.Routes(e)). The
// routes are listed when such an error happens.
func Routes(e *echo.Echo) func() []string {
	return func() []string {
		var out []string
		for _, rt := range e.Router().Routes() {
			if rt.Method != echo.RouteNotFound {
				out = append(out, rt.Method+" "+rt.Path)
			}
		}
		return out
	}
}
