package middleware

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestReplayKeepsOnlyKeptAndRenderedHeaders: a middleware between New and
// a Tool adds headers to the Tool's error response, and overwrites some of
// those Write set. The client gets Write's own headers, the kept ones
// (Vary, CORS), and none of the others; a Retry-After the error does not
// carry is gone.
func TestReplayKeepsOnlyKeptAndRenderedHeaders(t *testing.T) {
	tool := Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100").WithField("/limit")
	}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Vary", "Origin")
			w.Header().Set("Access-Control-Allow-Origin", "https://app.example")
			next.ServeHTTP(w, r)
			// After the Tool rendered: the chain's middleware tampers.
			w.Header().Set("Server", "internal-host-7")
			w.Header().Set("Set-Cookie", "session=abc")
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Retry-After", "120")
		})
	})
	rec := httptest.NewRecorder()
	New(WithLogger(quiet))(tool).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/search_orders", nil))
	require.Equal(t, http.StatusBadRequest, rec.Code)
	h := rec.Header()
	assert.Equal(t, toolerr.ContentTypeProblem, h.Get("Content-Type"), "Write's content type, not the middleware's")
	assert.Equal(t, "Origin", h.Get("Vary"))
	assert.Equal(t, "https://app.example", h.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "no-store", h.Get("Cache-Control"))
	assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	assert.NotEmpty(t, h.Get("X-Request-Id"))
	for _, k := range []string{"Server", "Set-Cookie", "Retry-After"} {
		assert.Empty(t, h.Values(k), k)
	}
	assert.Equal(t, "limit must be at most 100", problem(t, rec.Body.Bytes())["detail"])
}

// TestConcurrentToolErrorsKeepTheirOwnResponse serves Tool errors from many
// goroutines, each with its own detail, through one middleware whose
// failure states and rendering buffers are recycled: every response must
// carry its own detail and the request id of its own header (run with
// -race).
func TestConcurrentToolErrorsKeepTheirOwnResponse(t *testing.T) {
	h := New(WithLogger(quiet))(Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most "+r.URL.Query().Get("n")).WithField("/limit")
	}))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 300 {
				n := strconv.Itoa(g*1000 + i)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("POST", "/tools/search_orders?n="+n, nil))
				body := problem(t, rec.Body.Bytes())
				if body["detail"] != "limit must be at most "+n || body["request_id"] != rec.Header().Get("X-Request-Id") {
					t.Errorf("request %s got %v with X-Request-Id %q", n, body, rec.Header().Get("X-Request-Id"))
					return
				}
			}
		})
	}
	wg.Wait()
}
