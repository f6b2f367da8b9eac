package toolerrgin_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// toolRoutes registers a few tools on r, after Middleware.
func toolRoutes(r *gin.Engine, opts ...middleware.Option) {
	ok := func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{}) }
	r.Use(toolerrgin.Middleware(opts...))
	r.POST("/tools/search_orders", ok)
	r.POST("/tools/get_user", ok)
	r.POST("/tools/set_user", ok)
	r.GET("/orders/:id", ok)
	r.GET("/static/*file", ok)
}

// TestToolRoutes: gin's NoRoute 404 lists the engine's nearest routes,
// found through the http.Server, for the call's method; suggests one only
// when one alone is meant; an unrelated path gets none.
func TestToolRoutes(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) { toolRoutes(r) })
	for _, tc := range []struct {
		method, path string
		allowed      any
		suggested    any
	}{
		{"POST", "/tools/search_order", []any{"POST /tools/search_orders"}, "POST /tools/search_orders"},
		{"POST", "/tools/order_search", []any{"POST /tools/search_orders"}, nil},
		{"POST", "/tools/xet_user", []any{"POST /tools/get_user", "POST /tools/set_user"}, nil},
		{"GET", "/order/42", []any{"GET /orders/:id"}, "GET /orders/:id"},
		{"GET", "/tools/search_order", nil, nil}, // a POST tool
		{"POST", "/tools/weather", nil, nil},
	} {
		t.Run(tc.method+tc.path, func(t *testing.T) {
			resp, body := call(t, srv, tc.method, tc.path, "")
			e := requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
			assert.Equal(t, tc.allowed, e.AllowedValues, "%s", body)
			assert.Equal(t, tc.suggested, e.SuggestedValue, "%s", body)
			if tc.suggested != nil {
				assert.Contains(t, e.Hint, "suggested_value")
				_, text := call(t, srv, tc.method, tc.path, "", "Accept", "text/plain")
				assert.Contains(t, string(text), "\nsuggested_value: \""+tc.suggested.(string)+"\"\n")
			}
		})
	}
}

// TestToolRoutesBehindWrapper: an engine behind another handler is not
// found; toolerrgin.Routes gives its routes.
func TestToolRoutesBehindWrapper(t *testing.T) {
	wrapped := func(opts ...middleware.Option) *httptest.Server {
		r := gin.New()
		toolRoutes(r, opts...)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { r.ServeHTTP(w, req) }))
		t.Cleanup(srv.Close)
		return srv
	}
	resp, body := call(t, wrapped(), "POST", "/tools/search_order", "")
	e := requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
	assert.Nil(t, e.AllowedValues)

	var r *gin.Engine
	routes := func() []string { return toolerrgin.Routes(r)() }
	r = gin.New()
	toolRoutes(r, middleware.WithToolRoutes(routes))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { r.ServeHTTP(w, req) }))
	t.Cleanup(srv.Close)
	resp, body = call(t, srv, "POST", "/tools/search_order", "")
	e = requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
	assert.Equal(t, "POST /tools/search_orders", e.SuggestedValue, "%s", body)
}

// TestToolRoutesHostile: a secret in the path stays out of the body, a
// 100 KB path and thousands of routes cost nothing but the listing.
func TestToolRoutesHostile(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		toolRoutes(r)
		for i := range 3000 {
			r.POST(fmt.Sprintf("/bulk/tool_%04d", i), func(c *gin.Context) {})
		}
	})
	resp, body := call(t, srv, "POST", "/tools/search_order/"+secretKey, "")
	requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
	assert.NotContains(t, string(body), secretKey[8:])

	resp, body = call(t, srv, "POST", "/tools/"+strings.Repeat("search_orders", 8<<10), "")
	e := requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
	assert.Nil(t, e.AllowedValues)
	assert.Less(t, len(body), 4<<10)

	resp, body = call(t, srv, "POST", "/bulk/tool_0001x", "")
	e = requireError(t, resp, body, http.StatusNotFound, toolerr.CodeToolNotFound, "")
	require.NotNil(t, e.AllowedValues, "%s", body)
	assert.LessOrEqual(t, len(e.AllowedValues.([]any)), 5)
}
