package toolerrgin_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestPassThrough: a success is the handler's, byte for byte, and gin's
// writer answers truthfully inside the handler.
func TestPassThrough(t *testing.T) {
	type state struct {
		status, size int
		written      bool
	}
	var before, after state
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/orders/:id", func(c *gin.Context) {
			before = state{c.Writer.Status(), c.Writer.Size(), c.Writer.Written()}
			c.Header("X-Custom", "kept")
			c.JSON(201, gin.H{"id": c.Param("id"), "q": c.Query("q")})
			after = state{c.Writer.Status(), c.Writer.Size(), c.Writer.Written()}
		})
		r.GET("/empty", func(c *gin.Context) { c.Status(204) })
		r.GET("/nothing", func(c *gin.Context) {})
	})
	resp, body := call(t, srv, http.MethodGet, "/orders/42?q=x", "")
	require.Equal(t, 201, resp.StatusCode)
	assert.JSONEq(t, `{"id":"42","q":"x"}`, string(body))
	assert.Equal(t, "kept", resp.Header.Get("X-Custom"))
	assert.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
	assert.Equal(t, state{200, -1, false}, before)
	assert.Equal(t, state{201, len(body), true}, after)

	resp, body = call(t, srv, http.MethodGet, "/empty", "")
	assert.Equal(t, 204, resp.StatusCode)
	assert.Empty(t, body)
	resp, body = call(t, srv, http.MethodGet, "/nothing", "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, body)
}

// TestStreaming: c.Stream's chunks reach the client as they are flushed,
// not when the handler returns.
func TestStreaming(t *testing.T) {
	got := make(chan struct{})
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/events", func(c *gin.Context) {
			n := 0
			c.Stream(func(w io.Writer) bool {
				n++
				_, _ = io.WriteString(w, "event "+string(rune('0'+n))+"\n")
				if n == 1 {
					return true // flushed by Stream; the client reads it before the next
				}
				return false
			})
		})
		r.GET("/sse", func(c *gin.Context) {
			c.SSEvent("tick", "1")
			c.Writer.Flush()
			select {
			case <-got:
				c.SSEvent("tick", "2")
			case <-time.After(5 * time.Second):
				c.SSEvent("timeout", "the first event was not flushed")
			}
		})
	})
	resp, err := srv.Client().Get(srv.URL + "/sse")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	rd := bufio.NewReader(resp.Body)
	first, err := rd.ReadString('\n')
	require.NoError(t, err, "the first event arrives while the handler waits")
	assert.Equal(t, "event:tick\n", first)
	close(got)
	rest, err := io.ReadAll(rd)
	require.NoError(t, err)
	assert.Contains(t, string(rest), "data:2")
	assert.NotContains(t, string(rest), "timeout")

	resp2, body := call(t, srv, http.MethodGet, "/events", "")
	assert.Equal(t, 200, resp2.StatusCode)
	assert.Equal(t, "event 1\nevent 2\n", string(body))
}

// TestHijack: a handler may take the connection over through c.Writer.
func TestHijack(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/raw", func(c *gin.Context) {
			conn, brw, err := c.Writer.Hijack()
			if err != nil {
				c.String(500, err.Error())
				return
			}
			defer conn.Close()
			_, _ = brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nraw")
			_ = brw.Flush()
		})
	})
	resp, body := call(t, srv, http.MethodGet, "/raw", "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "raw", string(body))
}

// TestConnectPassesThrough: a Connect request's error stays in Connect's
// wire format: the middleware leaves RPC responses alone.
func TestConnectPassesThrough(t *testing.T) {
	const connectErr = `{"code":"not_found","message":"order 42"}`
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.POST("/orders.v1.Orders/Get", func(c *gin.Context) {
			c.Data(404, "application/json", []byte(connectErr))
		})
	})
	resp, body := call(t, srv, http.MethodPost, "/orders.v1.Orders/Get", `{"id":"42"}`, "Connect-Protocol-Version", "1")
	assert.Equal(t, 404, resp.StatusCode)
	assert.Equal(t, connectErr, strings.TrimSpace(string(body)))
	assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
}

// TestResponseController: http.ResponseController reaches the
// connection through c.Writer (deadlines, flush).
func TestResponseController(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/rc", func(c *gin.Context) {
			rc := http.NewResponseController(c.Writer)
			if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
				c.String(500, "deadline: %v", err)
				return
			}
			c.String(200, "ok")
			if err := rc.Flush(); err != nil {
				_, _ = c.Writer.WriteString(" flush: " + err.Error())
			}
		})
	})
	resp, body := call(t, srv, http.MethodGet, "/rc", "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "ok", string(body))
}
