package toolerrecho_test

import (
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// TestConcurrentRequests: requests served at once, failing and succeeding
// on different routes, each get their own error, tool and id: the calls
// the middleware reuses never carry one request's state into another's.
func TestConcurrentRequests(t *testing.T) {
	url := serve(t, newEcho(toolerrMW()))
	cases := []struct{ path, code, tool string }{
		{"/orders/1", toolerr.CodeConflict, "/orders/:id"},
		{"/orders/7", toolerr.CodeNotFound, "/orders/:id"},
		{"/refunds/1", toolerr.CodeInternal, "/refunds/:id"},
		{"/panic/1", toolerr.CodeInternal, "/panic/:id"},
		{"/no/such/tool", toolerr.CodeToolNotFound, ""},
		{"/orders/42", "", ""},
	}
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		ids = map[string]bool{}
	)
	for i := range 64 {
		wg.Go(func() {
			tc := cases[i%len(cases)]
			resp, err := http.Get(url + tc.path) // not do: no FailNow off the test's goroutine
			if !assert.NoError(t, err) {
				return
			}
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			assert.NoError(t, err)
			id := resp.Header.Get("X-Request-Id")
			mu.Lock()
			assert.False(t, ids[id], "ids are the request's own")
			ids[id] = true
			mu.Unlock()
			if tc.code == "" {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				return
			}
			e, err := toolerr.Parse(body)
			if !assert.NoError(t, err) {
				return
			}
			assert.Equal(t, tc.code, e.Code, tc.path)
			assert.Equal(t, tc.tool, e.Tool, tc.path)
			assert.Equal(t, id, e.RequestID)
		})
	}
	wg.Wait()
}
