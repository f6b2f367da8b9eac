package toolerrgin_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// conflict is a service's own error, with the members gin's
// AbortWithError used to drop.
func conflict() *toolerr.Error {
	return toolerr.Default().New(toolerr.CodeConflict, "Order 42 was changed by another call.").
		WithField("/version").WithDetails(map[string]any{"current_version": 7})
}

// errLeaky is a plain Go error whose text is all secrets.
var errLeaky = fmt.Errorf("charge failed: key %s dsn %s card %s", secretKey, secretDSN, secretCard)

// TestIdioms: every way a gin handler fails becomes one error with the
// code's status, the route as the tool, and nothing secret in it.
func TestIdioms(t *testing.T) {
	cases := []struct {
		name    string
		h       gin.HandlerFunc
		status  int
		code    string
		check   func(t *testing.T, e wireError)
		noTrace bool
	}{
		{name: "c.Error alone", h: func(c *gin.Context) { _ = c.Error(errLeaky) },
			status: 500, code: toolerr.CodeInternal},
		{name: "c.Error after c.JSON 500 with the error's text", h: func(c *gin.Context) {
			c.JSON(500, gin.H{"error": errLeaky.Error()})
			_ = c.Error(errLeaky)
		}, status: 500, code: toolerr.CodeInternal},
		{name: "AbortWithError of a toolerr error keeps detail, field, details", h: func(c *gin.Context) {
			_ = c.AbortWithError(http.StatusConflict, conflict())
		}, status: 409, code: toolerr.CodeConflict, check: func(t *testing.T, e wireError) {
			assert.Equal(t, "Order 42 was changed by another call.", e.Detail)
			assert.Equal(t, "/version", e.Field)
			assert.Equal(t, map[string]any{"current_version": float64(7)}, e.Details)
			assert.Nil(t, e.Upstream)
		}},
		{name: "AbortWithError with another status than the code's: the code's wins", h: func(c *gin.Context) {
			_ = c.AbortWithError(http.StatusBadRequest, fmt.Errorf("wrapped: %w", conflict()))
		}, status: 409, code: toolerr.CodeConflict},
		{name: "AbortWithError 403 of a plain error: the local code, no text", h: func(c *gin.Context) {
			_ = c.AbortWithError(http.StatusForbidden, errLeaky)
		}, status: 403, code: toolerr.CodePermissionDenied, check: noUpstream},
		{name: "AbortWithError 404 of a plain error on a route: not TOOL_NOT_FOUND", h: func(c *gin.Context) {
			_ = c.AbortWithError(http.StatusNotFound, errors.New("sql: no rows in result set"))
		}, status: 404, code: toolerr.CodeNotFound, check: noUpstream},
		{name: "AbortWithError 500 of a plain error", h: func(c *gin.Context) {
			_ = c.AbortWithError(http.StatusInternalServerError, errLeaky)
		}, status: 500, code: toolerr.CodeInternal},
		{name: "a public error's text is the detail, sanitized", h: func(c *gin.Context) {
			c.AbortWithStatus(http.StatusUnprocessableEntity)
			_ = c.Error(errors.New("the order is already shipped; key " + secretKey)).SetType(gin.ErrorTypePublic)
		}, status: 422, code: toolerr.CodeValidationFailed, check: func(t *testing.T, e wireError) {
			assert.Contains(t, e.Detail, "the order is already shipped")
		}},
		{name: "a private error's text is not", h: func(c *gin.Context) {
			c.AbortWithStatus(http.StatusUnprocessableEntity)
			_ = c.Error(errors.New("the order is already shipped"))
		}, status: 422, code: toolerr.CodeValidationFailed, check: func(t *testing.T, e wireError) {
			assert.NotContains(t, e.Detail, "shipped")
		}},
		{name: "a public 5xx error's text is not the detail", h: func(c *gin.Context) {
			c.AbortWithStatus(http.StatusInternalServerError)
			_ = c.Error(errors.New("shard 3 is down")).SetType(gin.ErrorTypePublic)
		}, status: 500, code: toolerr.CodeInternal, check: func(t *testing.T, e wireError) {
			assert.NotContains(t, e.Detail, "shard")
		}},
		{name: "the toolerr error wins over later plain ones", h: func(c *gin.Context) {
			_ = c.Error(conflict())
			_ = c.Error(errLeaky)
		}, status: 409, code: toolerr.CodeConflict},
		{name: "c.JSON 500 with a DB host", h: func(c *gin.Context) {
			c.JSON(500, gin.H{"error": "pq: connection to db.prod.internal:5432 failed"})
		}, status: 500, code: toolerr.CodeInternal},
		{name: "c.String 502 relaying nginx's page and Server header: the gateway is evidenced", h: func(c *gin.Context) {
			c.Header("Server", "nginx/1.25.3")
			c.String(502, nginxPage)
		}, status: 503, code: toolerr.CodeUpstreamUnavailable},
		{name: "c.String 502 with nginx's page alone", h: func(c *gin.Context) {
			c.String(502, nginxPage)
		}, status: 503, code: toolerr.CodeUpstreamUnavailable},
		{name: "AbortWithStatus 400 then toolerr.Write: no false upstream", h: func(c *gin.Context) {
			c.AbortWithStatus(http.StatusBadRequest)
			toolerr.Write(c.Writer, c.Request, conflict())
		}, status: 409, code: toolerr.CodeConflict, check: noUpstream},
		{name: "AbortWithStatusJSON 422 with the handler's own message", h: func(c *gin.Context) {
			c.AbortWithStatusJSON(http.StatusUnprocessableEntity, gin.H{"error": "quantity must be positive; key " + secretKey})
		}, status: 422, code: toolerr.CodeValidationFailed, check: noUpstream},
		{name: "c.String 500 with a Go stack trace", h: func(c *gin.Context) {
			c.String(500, "panic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\nmain.charge()\n\t/srv/app/charge.go:42 +0x1d\n")
		}, status: 500, code: toolerr.CodeInternal},
		{name: "c.Status 503 and nothing written", h: func(c *gin.Context) { c.Status(503) },
			status: 503, code: toolerr.CodeToolUnavailable},
		{name: "AbortWithStatus 401", h: func(c *gin.Context) { c.AbortWithStatus(401) },
			status: 401, code: toolerr.CodeUnauthenticated},
		{name: "a render failure", h: func(c *gin.Context) {
			c.JSON(200, gin.H{"v": make(chan int)}) // json cannot encode a channel
		}, status: 500, code: toolerr.CodeInternal},
		{name: "a cancelled context reported", h: func(c *gin.Context) {
			_ = c.Error(fmt.Errorf("query: %w", errTimeout))
		}, status: 504, code: toolerr.CodeUpstreamTimeout},
	}
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		for i, tc := range cases {
			r.POST(fmt.Sprintf("/case/%d/:id", i), tc.h)
		}
	})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := call(t, srv, http.MethodPost, fmt.Sprintf("/case/%d/42", i), "")
			e := requireError(t, resp, body, tc.status, tc.code, fmt.Sprintf("/case/%d/:id", i))
			if tc.check != nil {
				tc.check(t, e)
			}
		})
	}
}

// errTimeout is a network timeout of an outbound call.
var errTimeout = timeoutError{}

type timeoutError struct{}

func (timeoutError) Error() string   { return "dial tcp 10.0.3.7:5432: i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// noUpstream checks that the error blames no downstream.
func noUpstream(t *testing.T, e wireError) {
	t.Helper()
	assert.Nil(t, e.Upstream)
	assert.NotContains(t, e.Code, "UPSTREAM")
}

// TestErrorAfterSuccess: an error reported after a 200 was sent cannot
// change it; the response stays as it was, whole.
func TestErrorAfterSuccess(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/orders/:id", func(c *gin.Context) {
			c.JSON(200, gin.H{"id": c.Param("id")})
			_ = c.Error(errLeaky)
		})
	})
	resp, body := call(t, srv, http.MethodGet, "/orders/42", "")
	require.Equal(t, 200, resp.StatusCode)
	assert.JSONEq(t, `{"id":"42"}`, string(body))
}
