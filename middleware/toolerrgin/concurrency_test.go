package toolerrgin_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestConcurrent: one engine, one middleware, many requests at once with
// mixed outcomes (run with -race): each response is its own, with its own
// id, tool and code.
func TestConcurrent(t *testing.T) {
	srv := serve(t, func(r *gin.Engine) {
		r.Use(toolerrgin.Middleware())
		r.GET("/ok/:id", func(c *gin.Context) { c.JSON(200, gin.H{"id": c.Param("id")}) })
		r.GET("/conflict/:id", func(c *gin.Context) { _ = c.AbortWithError(409, conflict()) })
		r.POST("/bind/:id", toolerrgin.Tool("bind", func(c *gin.Context) error {
			var a bindArgs
			return toolerrgin.ShouldBindJSON(c, &a)
		}))
		r.GET("/panic/:id", func(c *gin.Context) { panic(secretKey) })
	})
	type want struct {
		method, path, body string
		status             int
		code, tool         string
	}
	wants := []want{
		{http.MethodGet, "/ok/%d", "", 200, "", ""},
		{http.MethodGet, "/conflict/%d", "", 409, toolerr.CodeConflict, "/conflict/:id"},
		{http.MethodPost, "/bind/%d", `{"status":"OPEN","limit":1,"customer_id":"C0000042"}`, 400, toolerr.CodeValidationFailed, "bind"},
		{http.MethodGet, "/panic/%d", "", 500, toolerr.CodeInternal, "/panic/:id"},
	}
	const workers, each = 16, 25
	var wg sync.WaitGroup
	ids := sync.Map{}
	for g := range workers {
		wg.Go(func() {
			for i := range each {
				w := wants[(g+i)%len(wants)]
				n := g*each + i
				var rd io.Reader
				if w.body != "" {
					rd = strings.NewReader(w.body)
				}
				req, err := http.NewRequest(w.method, srv.URL+fmt.Sprintf(w.path, n), rd)
				if !assert.NoError(t, err) {
					return
				}
				req.Header.Set("Content-Type", "application/json")
				resp, err := srv.Client().Do(req)
				if !assert.NoError(t, err) {
					return
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				assert.Equal(t, w.status, resp.StatusCode)
				id := resp.Header.Get("X-Request-Id")
				_, dup := ids.LoadOrStore(id, true)
				assert.False(t, dup, "request id %s seen twice", id)
				if w.status == 200 {
					assert.JSONEq(t, fmt.Sprintf(`{"id":"%d"}`, n), string(body))
					continue
				}
				var e wireError
				assert.NoError(t, json.Unmarshal(body, &e))
				assert.Equal(t, w.code, e.Code)
				assert.Equal(t, w.tool, e.Tool)
				assert.Equal(t, id, e.RequestID)
				assert.NotContains(t, string(body), "sk_live_")
			}
		})
	}
	wg.Wait()
	n := 0
	ids.Range(func(any, any) bool { n++; return true })
	require.Equal(t, workers*each, n)
}
