package toolerrecho_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrecho"
)

// toolEcho returns an echo serving a few tools under mount (e.Use or
// e.Pre), a group whose middleware adds not-found routes, and extra bulk
// routes.
func toolEcho(pre bool, bulk int, opts ...middleware.Option) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	mw := toolerrecho.Middleware(append([]middleware.Option{middleware.WithLogger(quiet)}, opts...)...)
	if pre {
		e.Pre(mw)
	} else {
		e.Use(mw)
	}
	ok := func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]any{}) }
	e.POST("/tools/search_orders", ok)
	e.POST("/tools/get_user", ok)
	e.POST("/tools/set_user", ok)
	e.GET("/orders/:id", ok)
	admin := e.Group("/admin", func(next echo.HandlerFunc) echo.HandlerFunc { return next })
	admin.POST("/reindex", ok)
	for i := range bulk {
		e.POST(fmt.Sprintf("/bulk/tool_%04d", i), ok)
	}
	return e
}

// notFound sends a request and returns its TOOL_NOT_FOUND members.
func notFound(t *testing.T, method, url string) (map[string]any, string) {
	t.Helper()
	resp, body := do(t, method, url, nil, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "%s", body)
	p := problem(t, resp, body)
	require.Equal(t, toolerr.CodeToolNotFound, p["code"], "%s", body)
	return p, string(body)
}

// TestToolRoutes: echo's 404 for a path no route matches lists the echo's
// nearest routes for the call's method (its not-found routes never), the
// suggestion only when one alone is meant, nothing for an unrelated path;
// mounted with e.Use or e.Pre.
func TestToolRoutes(t *testing.T) {
	for _, pre := range []bool{false, true} {
		url := serve(t, toolEcho(pre, 0))
		for _, tc := range []struct {
			method, path string
			allowed      any
			suggested    any
		}{
			{"POST", "/tools/search_order", []any{"POST /tools/search_orders"}, "POST /tools/search_orders"},
			{"POST", "/tools/xet_user", []any{"POST /tools/get_user", "POST /tools/set_user"}, nil},
			{"GET", "/order/42", []any{"GET /orders/:id"}, "GET /orders/:id"},
			{"POST", "/admin/reindx", []any{"POST /admin/reindex"}, "POST /admin/reindex"},
			{"GET", "/admin/x", nil, nil}, // the group's not-found routes are no tools
			{"GET", "/tools/search_order", nil, nil},
			{"POST", "/tools/weather", nil, nil},
		} {
			t.Run(fmt.Sprint(pre, tc.method, tc.path), func(t *testing.T) {
				p, body := notFound(t, tc.method, url+tc.path)
				assert.Equal(t, tc.allowed, p["allowed_values"], body)
				assert.Equal(t, tc.suggested, p["suggested_value"], body)
				if tc.allowed != nil {
					assert.Contains(t, p["hint"], "allowed_values")
				}
			})
		}
	}
}

// TestToolRoutesNotFoundRoute: a not-found route that answers 404 itself
// gets the nearest routes too; Routes, filtered, takes precedence.
func TestToolRoutesNotFoundRoute(t *testing.T) {
	e := toolEcho(false, 0)
	e.RouteNotFound("/tools/*", func(c echo.Context) error {
		return c.JSON(http.StatusNotFound, map[string]string{"error": "no such tool"})
	})
	p, body := notFound(t, "POST", serve(t, e)+"/tools/search_order")
	assert.Equal(t, "POST /tools/search_orders", p["suggested_value"], body)

	var filtered *echo.Echo
	only := func() []string {
		var out []string
		for _, r := range toolerrecho.Routes(filtered)() {
			if strings.Contains(r, "_user") {
				out = append(out, r)
			}
		}
		return out
	}
	filtered = toolEcho(false, 0, middleware.WithToolRoutes(only))
	url := serve(t, filtered)
	p, body = notFound(t, "POST", url+"/tools/search_order")
	assert.Nil(t, p["allowed_values"], body)
	p, body = notFound(t, "POST", url+"/tools/get_usr")
	assert.Equal(t, "POST /tools/get_user", p["suggested_value"], body)
}

// TestToolRoutesHostile: a secret in the path never reaches the body; a
// 100 KB path and thousands of routes cost the error its listing at most.
func TestToolRoutesHostile(t *testing.T) {
	url := serve(t, toolEcho(false, 3000))
	_, body := notFound(t, "POST", url+"/tools/search_order/"+stripeKey)
	assert.NotContains(t, body, stripeKey[8:])

	p, body := notFound(t, "POST", url+"/tools/"+strings.Repeat("search_orders", 8<<10))
	assert.Nil(t, p["allowed_values"])
	assert.Less(t, len(body), 4<<10)

	p, body = notFound(t, "POST", url+"/bulk/tool_0001x")
	require.NotNil(t, p["allowed_values"], body)
	assert.LessOrEqual(t, len(p["allowed_values"].([]any)), 5)
}
