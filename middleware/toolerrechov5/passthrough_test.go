package toolerrechov5_test

import (
	"bufio"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuccessPassesThrough: a 200 JSON response reaches the client as echo
// wrote it, with the request's id added and nothing else changed.
func TestSuccessPassesThrough(t *testing.T) {
	alone := serve(t, newEcho())
	with := serve(t, newEcho(toolerrMW()))
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/orders/42", ""},
		{"POST", "/orders", `{"id":"9","qty":2}`},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			h := http.Header{"Content-Type": {"application/json"}}
			want, wantBody := do(t, tc.method, alone+tc.path, h, tc.body)
			got, gotBody := do(t, tc.method, with+tc.path, h, tc.body)
			require.Less(t, want.StatusCode, 300)
			assert.Equal(t, want.StatusCode, got.StatusCode)
			assert.Equal(t, string(wantBody), string(gotBody))
			assert.Equal(t, want.Header.Get("Content-Type"), got.Header.Get("Content-Type"))
			assert.Equal(t, want.Header.Get("Content-Length"), got.Header.Get("Content-Length"))
			assert.Len(t, got.Header.Values("X-Request-Id"), 1)
		})
	}
}

// TestStreamFlushes: a streamed response's Flush reaches the client while
// the handler still runs: the client reads the first event before the
// handler writes the second.
func TestStreamFlushes(t *testing.T) {
	gate := make(chan struct{})
	e := newEcho(toolerrMW())
	e.GET("/events/:id", func(c *echo.Context) error {
		c.Response().Header().Set(echo.HeaderContentType, "text/event-stream")
		c.Response().WriteHeader(http.StatusOK)
		_, _ = c.Response().Write([]byte("data: one\n\n"))
		assert.NoError(t, http.NewResponseController(c.Response()).Flush())
		select {
		case <-gate:
			_, _ = c.Response().Write([]byte("data: two\n\n"))
		case <-time.After(10 * time.Second): // Flush broken: the client got nothing yet
			_, _ = c.Response().Write([]byte("data: late\n\n"))
		}
		return nil
	})
	resp, err := http.Get(serve(t, e) + "/events/1")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := bufio.NewReader(resp.Body)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "data: one\n", line, "flushed before the handler went on")
	close(gate)
	rest, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "\ndata: two\n\n", string(rest))
}
