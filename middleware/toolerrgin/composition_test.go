package toolerrgin_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-contrib/requestid"
	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestPanics: a panic carrying a secret, with gin.Recovery before
// toolerr, after it, or absent, is INTERNAL_ERROR with no stack and no
// secret; the handlers after the one that panicked do not run.
func TestPanics(t *testing.T) {
	cases := []struct {
		name  string
		chain func(r *gin.Engine, stderr io.Writer)
	}{
		{name: "no gin.Recovery", chain: func(r *gin.Engine, _ io.Writer) { r.Use(toolerrgin.Middleware()) }},
		{name: "gin.Recovery before toolerr", chain: func(r *gin.Engine, w io.Writer) {
			r.Use(gin.RecoveryWithWriter(w), toolerrgin.Middleware())
		}},
		{name: "gin.Recovery after toolerr", chain: func(r *gin.Engine, w io.Writer) {
			r.Use(toolerrgin.Middleware(), gin.RecoveryWithWriter(w))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ranAfter bool
			var log bytes.Buffer
			srv := serve(t, func(r *gin.Engine) {
				tc.chain(r, &log)
				r.GET("/charge/:id", func(c *gin.Context) {
					panic(fmt.Errorf("charge failed with %s at %s", secretKey, secretDSN))
				}, func(c *gin.Context) { ranAfter = true })
				r.GET("/nil/:id", func(c *gin.Context) {
					c.String(200, "%d", []int{1}[len(c.Param("id"))]) // a runtime error: index out of range
				})
			})
			resp, body := call(t, srv, http.MethodGet, "/charge/7", "")
			requireError(t, resp, body, 500, toolerr.CodeInternal, "/charge/:id")
			assert.False(t, ranAfter, "a handler after the panic ran")
			resp, body = call(t, srv, http.MethodGet, "/nil/7", "")
			requireError(t, resp, body, 500, toolerr.CodeInternal, "/nil/:id")
		})
	}
}

// TestNoRouteNoMethod: gin's engine-level 404 and 405 reach router
// middleware (gin runs r.Use handlers for them): TOOL_NOT_FOUND, and
// METHOD_NOT_ALLOWED with gin's Allow header; a NoRoute handler's own 404
// body is TOOL_NOT_FOUND too, and a NoRoute that serves a page passes.
func TestNoRouteNoMethod(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.HandleMethodNotAllowed = true
		r.Use(toolerrgin.Middleware())
		r.GET("/orders/:id", func(c *gin.Context) { c.JSON(200, gin.H{"id": c.Param("id")}) })
		r.DELETE("/orders/:id", func(c *gin.Context) { c.Status(204) })
	})
	resp, body := call(t, srv, http.MethodGet, "/nothing/here", "")
	requireError(t, resp, body, 404, toolerr.CodeToolNotFound, "")
	resp, body = call(t, srv, http.MethodPost, "/orders/1", "")
	e := requireError(t, resp, body, 405, toolerr.CodeMethodNotAllowed, "")
	assert.Equal(t, "GET, DELETE", resp.Header.Get("Allow"))
	assert.Equal(t, []any{"GET", "DELETE"}, e.AllowedValues)

	custom := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.NoRoute(func(c *gin.Context) {
			if strings.HasPrefix(c.Request.URL.Path, "/app/") {
				c.String(200, "<html>app</html>")
				return
			}
			c.JSON(404, gin.H{"error": "no route to " + dbHost})
		})
	})
	resp, body = call(t, custom, http.MethodGet, "/tools/missing", "")
	requireError(t, resp, body, 404, toolerr.CodeToolNotFound, "")
	resp, body = call(t, custom, http.MethodGet, "/app/page", "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "<html>app</html>", string(body))
}

// TestOneRequestID: with gin-contrib/requestid before or after toolerr,
// the client sees one id, the same in X-Request-Id and request_id, on
// errors and successes; a valid incoming id is kept.
func TestOneRequestID(t *testing.T) {
	var seen string
	handlers := func(r *gin.Engine) {
		r.GET("/fail/:id", func(c *gin.Context) {
			seen = requestid.Get(c)
			_ = c.AbortWithError(409, conflict())
		})
		r.GET("/ok/:id", func(c *gin.Context) {
			seen = requestid.Get(c)
			c.JSON(200, gin.H{"ok": true})
		})
	}
	cases := []struct {
		name  string
		chain []gin.HandlerFunc
	}{
		{"requestid before toolerr", []gin.HandlerFunc{requestid.New(), toolerrgin.Middleware()}},
		{"requestid after toolerr", []gin.HandlerFunc{toolerrgin.Middleware(), requestid.New()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, func(r *gin.Engine) { r.Use(tc.chain...); handlers(r) })
			resp, body := call(t, srv, http.MethodGet, "/fail/1", "")
			e := requireError(t, resp, body, 409, toolerr.CodeConflict, "/fail/:id")
			assert.Equal(t, seen, e.RequestID, "the request-id middleware's id is the error's")

			resp, _ = call(t, srv, http.MethodGet, "/ok/1", "")
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, []string{seen}, resp.Header.Values("X-Request-Id"))

			resp, body = call(t, srv, http.MethodGet, "/fail/1", "", "X-Request-Id", secretKey)
			e = requireError(t, resp, body, 409, toolerr.CodeConflict, "/fail/:id")
			assert.NotEqual(t, secretKey, e.RequestID, "an id carrying a key is not echoed")

			resp, body = call(t, srv, http.MethodGet, "/fail/1", "", "X-Request-Id", "agent-run-77")
			e = requireError(t, resp, body, 409, toolerr.CodeConflict, "/fail/:id")
			assert.Equal(t, "agent-run-77", e.RequestID)
			assert.Equal(t, "agent-run-77", seen)
		})
	}
}

// TestLaterWrites: an outer middleware that writes after toolerr sent an
// error (a gin error handler reading c.Errors) cannot corrupt it, and
// reads the status that went out; when toolerr sent nothing, its write
// passes as without toolerr.
func TestLaterWrites(t *testing.T) {
	var status int
	srv := serve(t, func(r *gin.Engine) {
		r.Use(func(c *gin.Context) {
			c.Next()
			status = c.Writer.Status()
			if len(c.Errors) > 0 {
				c.JSON(500, gin.H{"error": c.Errors.String()})
			}
			if c.Request.URL.Path == "/late/ok" {
				c.JSON(503, gin.H{"error": "maintenance"})
			}
		}, toolerrgin.Middleware())
		r.GET("/late/fail", func(c *gin.Context) { _ = c.AbortWithError(409, conflict()) })
		r.GET("/late/ok", func(c *gin.Context) {})
	})
	resp, body := call(t, srv, http.MethodGet, "/late/fail", "")
	requireError(t, resp, body, 409, toolerr.CodeConflict, "/late/fail")
	assert.Equal(t, 409, status)

	resp, body = call(t, srv, http.MethodGet, "/late/ok", "")
	assert.Equal(t, 503, resp.StatusCode, "the outer handler's status, as without toolerr")
	assert.JSONEq(t, `{"error":"maintenance"}`, string(body))
}

// TestLoneTool: a Tool no Middleware covers still answers its error.
func TestLoneTool(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.POST("/refund/:id", toolerrgin.Tool("refund", func(c *gin.Context) error {
			if c.Param("id") == "0" {
				return fmt.Errorf("refund: %s", secretDSN)
			}
			return conflict()
		}))
	})
	resp, body := call(t, srv, http.MethodPost, "/refund/9", "")
	requireError(t, resp, body, 409, toolerr.CodeConflict, "refund")
	resp, body = call(t, srv, http.MethodPost, "/refund/0", "")
	requireError(t, resp, body, 500, toolerr.CodeInternal, "refund")
}

// TestToolUnderMiddleware: a Tool's returned error wins over errors the
// handler added to c.Errors, and its name over the route.
func TestToolUnderMiddleware(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders/:id/cancel", toolerrgin.Tool("cancel_order", func(c *gin.Context) error {
			_ = c.Error(conflict())
			return toolerr.Default().New(toolerr.CodeNotFound, "Order "+c.Param("id")+" does not exist.")
		}))
	})
	resp, body := call(t, srv, http.MethodPost, "/orders/77/cancel", "")
	e := requireError(t, resp, body, 404, toolerr.CodeNotFound, "cancel_order")
	assert.Equal(t, "Order 77 does not exist.", e.Detail)
}

// TestMountedTwice: the adapter on the engine and again on a group
// answers once, with one valid error; successes pass.
func TestMountedTwice(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		g := r.Group("/v1", toolerrgin.Middleware())
		g.GET("/orders/:id", func(c *gin.Context) {
			if c.Param("id") == "0" {
				_ = c.Error(errLeaky)
				return
			}
			c.Status(http.StatusCreated)
		})
	})
	resp, body := call(t, srv, http.MethodGet, "/v1/orders/0", "")
	requireError(t, resp, body, 500, toolerr.CodeInternal, "/v1/orders/:id")
	resp, body = call(t, srv, http.MethodGet, "/v1/orders/1", "")
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Empty(t, body)
}

// TestToolReturnsAbortWithError: return c.AbortWithError(…), a common
// idiom, reports the error once and keeps one entry in c.Errors.
func TestToolReturnsAbortWithError(t *testing.T) {
	var n int
	srv := serve(t, func(r *gin.Engine) {
		r.Use(func(c *gin.Context) { c.Next(); n = len(c.Errors) }, toolerrgin.Middleware())
		r.POST("/orders/:id", toolerrgin.Tool("update_order", func(c *gin.Context) error {
			return c.AbortWithError(http.StatusConflict, conflict())
		}))
	})
	resp, body := call(t, srv, http.MethodPost, "/orders/1", "")
	requireError(t, resp, body, 409, toolerr.CodeConflict, "update_order")
	assert.Equal(t, 1, n)
}

// TestOptions: the core middleware's options pass through the adapter:
// the envelope format and a tool-name function.
func TestOptions(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware(
			middleware.WithFormat(toolerr.FormatEnvelope),
			middleware.WithLogger(slog.New(slog.DiscardHandler)),
			middleware.WithToolName(func(r *http.Request) string {
				if r.Pattern == "/named/:id" {
					return "named_by_option"
				}
				return ""
			}),
		))
		r.GET("/orders/:id", func(c *gin.Context) { _ = c.AbortWithError(409, conflict()) })
		r.GET("/named/:id", func(c *gin.Context) { _ = c.AbortWithError(409, conflict()) })
		r.GET("/tool/:id", toolerrgin.Tool("tool_wins", func(c *gin.Context) error { return conflict() }))
	})
	resp, body := call(t, srv, http.MethodGet, "/orders/1", "")
	require.Equal(t, 409, resp.StatusCode)
	require.NoError(t, toolerr.Validate(body), "body: %s", body)
	var env struct {
		OK    bool      `json:"ok"`
		Error wireError `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &env))
	assert.False(t, env.OK)
	assert.Equal(t, toolerr.CodeConflict, env.Error.Code)
	assert.Equal(t, "/orders/:id", env.Error.Tool)
	assert.Equal(t, resp.Header.Get("X-Request-Id"), env.Error.RequestID)

	for path, tool := range map[string]string{"/named/1": "named_by_option", "/tool/1": "tool_wins"} {
		_, body = call(t, srv, http.MethodGet, path, "")
		require.NoError(t, json.Unmarshal(body, &env))
		assert.Equal(t, tool, env.Error.Tool)
	}
}
