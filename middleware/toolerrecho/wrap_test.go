package toolerrecho_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestWrapMiddlewareIsNotAnEmpty200 is the regression test of the bug
// report: mounted the way echo documents it,
// e.Use(echo.WrapMiddleware(middleware.New())), every returned error
// reached the agent as 200 with an empty body. The middleware now leaves
// the response it did not send uncommitted, so echo's HTTPErrorHandler,
// which writes after it returned, answers with echo's own status and body.
func TestWrapMiddlewareIsNotAnEmpty200(t *testing.T) {
	url := serve(t, newEcho(echo.WrapMiddleware(middleware.New(middleware.WithLogger(quiet)))))
	cases := []struct {
		name, method, path, body string
		status                   int
		message                  string
	}{
		{"echo.NewHTTPError(404)", "GET", "/orders/7", "", 404, "Order 7 does not exist."},
		{"a *toolerr.Error", "GET", "/orders/1", "", 500, "Internal Server Error"},
		{"a plain error", "GET", "/refunds/1", "", 500, "Internal Server Error"},
		{"a bind error", "POST", "/orders", `{"qty": "ten"}`, 400, ""},
		{"unknown route", "GET", "/no/such/tool", "", 404, "Not Found"},
		{"wrong method", "DELETE", "/orders/42", "", 405, "Method Not Allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, tc.method, url+tc.path, http.Header{"Content-Type": {"application/json"}}, tc.body)
			require.Equal(t, tc.status, resp.StatusCode, "%s", body)
			require.NotEmpty(t, body, "never an empty body")
			var m map[string]any
			require.NoError(t, json.Unmarshal(body, &m), "echo's own JSON error: %s", body)
			if tc.message != "" {
				assert.Equal(t, tc.message, m["message"])
			}
			assert.True(t, toolerr.ValidRequestID(resp.Header.Get("X-Request-Id")))
		})
	}
}

// TestWholeEchoWrapped: wrapping the whole *echo.Echo in middleware.New()
// made a returned *toolerr.Error a 500 INTERNAL_ERROR (echo's 500 for an
// error it does not know was all the middleware saw). With the adapter
// mounted too, the outer middleware renders the error the adapter hands
// over: the *toolerr.Error keeps its code, and the id is the outer one's.
func TestWholeEchoWrapped(t *testing.T) {
	e := newEcho(toolerrMW())
	url := serve(t, middleware.New(middleware.WithLogger(quiet))(e))
	for _, tc := range []struct {
		path, code string
		status     int
	}{
		{"/orders/1", toolerr.CodeConflict, 409},
		{"/orders/7", toolerr.CodeNotFound, 404},
		{"/no/such/tool", toolerr.CodeToolNotFound, 404},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := do(t, "GET", url+tc.path, nil, "")
			require.Equal(t, tc.status, resp.StatusCode, "%s", body)
			assert.Equal(t, tc.code, problem(t, resp, body)["code"])
		})
	}
}

// TestRPCRequestsStayEchos: a Connect request (Connect-Protocol-Version)
// speaks its own protocol: the middleware does not take its error, and
// echo answers it as it would without toolerr.
func TestRPCRequestsStayEchos(t *testing.T) {
	url := serve(t, newEcho(toolerrMW()))
	resp, body := do(t, "GET", url+"/orders/7", http.Header{"Connect-Protocol-Version": {"1"}}, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.JSONEq(t, `{"message":"Order 7 does not exist."}`, string(body))
}

// TestMountedTwice: the adapter mounted twice on one request's path (on
// the echo and again on a group) renders each error once: the inner
// middleware steps aside for the outer, and the inner adapter hands its
// error to the outer one.
func TestMountedTwice(t *testing.T) {
	e := newEcho(toolerrMW())
	g := e.Group("/v2", toolerrMW())
	g.GET("/orders/:id", func(c echo.Context) error { return conflict })
	url := serve(t, e)
	for _, tc := range []struct {
		path, code, tool string
		status           int
	}{
		{"/v2/orders/1", toolerr.CodeConflict, "/v2/orders/:id", 409},
		{"/v2/nope", toolerr.CodeToolNotFound, "", 404},
		{"/orders/7", toolerr.CodeNotFound, "/orders/:id", 404},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := do(t, "GET", url+tc.path, nil, "")
			require.Equal(t, tc.status, resp.StatusCode, "%s", body)
			p := problem(t, resp, body)
			assert.Equal(t, tc.code, p["code"])
			if tc.tool == "" {
				assert.NotContains(t, p, "tool")
			} else {
				assert.Equal(t, tc.tool, p["tool"])
			}
		})
	}
}
