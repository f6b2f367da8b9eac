package middleware

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// countingHandler returns a middleware whose text filter counts how often
// each text is cleaned.
func countingHandler(opts ...Option) (*handler, func(string) int) {
	m := newHandler(append([]Option{WithLogger(quiet)}, opts...))
	var mu sync.Mutex
	seen := map[string]int{}
	clean := m.hooks.Clean
	m.hooks.Clean = func(s string) string {
		mu.Lock()
		seen[s]++
		mu.Unlock()
		return clean(s)
	}
	return m, func(s string) int {
		mu.Lock()
		defer mu.Unlock()
		return seen[s]
	}
}

// TestErrorTextIsSanitizedOnce: each text of an error reaches the
// sanitizer once, whether a Tool returned the error or the middleware
// replaced a raw response; the second pass of finish is gone.
func TestErrorTextIsSanitizedOnce(t *testing.T) {
	const detail = "limit must be at most 100 for acct 7"
	t.Run("a Tool's returned error", func(t *testing.T) {
		m, count := countingHandler()
		tool := Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
			return toolerr.Default().New(toolerr.CodeValidationFailed, detail).WithField("/limit")
		})
		rec := httptest.NewRecorder()
		m.serve(rec, httptest.NewRequest("POST", "/tools/search_orders", nil), tool)
		require.Equal(t, 400, rec.Code)
		assert.Equal(t, detail, problem(t, rec.Body.Bytes())["detail"])
		assert.Equal(t, 1, count(detail))
		assert.Equal(t, 1, count("/tools/search_orders"), "the instance")
	})
	t.Run("a raw response replaced", func(t *testing.T) {
		m, count := countingHandler()
		h := rawHandler(http.StatusUnprocessableEntity, map[string]string{"Content-Type": "text/plain"}, detail)
		rec := httptest.NewRecorder()
		m.serve(rec, httptest.NewRequest("POST", "/tools/search_orders", nil), h)
		require.Equal(t, 422, rec.Code)
		assert.Equal(t, 1, count("/tools/search_orders"), "the instance")
	})
}

// TestToolRenderingReachesMiddlewareInBetween: the response a middleware
// between New and a Tool sees is the one the client gets, byte for byte,
// and a middleware that rewrites it (compression) does not change what
// the client gets.
func TestToolRenderingReachesMiddlewareInBetween(t *testing.T) {
	tool := Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "bad limit").WithField("/limit")
	})
	t.Run("seen as sent", func(t *testing.T) {
		var seen bytes.Buffer
		var seenStatus int
		tee := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				seenStatus = rec.Code
				seen.Write(rec.Body.Bytes())
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
			})
		}
		rec := httptest.NewRecorder()
		New(WithLogger(quiet))(tee(tool)).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/search_orders", nil))
		assert.Equal(t, 400, seenStatus)
		assert.Equal(t, seen.String(), rec.Body.String())
		m := problem(t, rec.Body.Bytes())
		assert.Equal(t, rec.Header().Get("X-Request-Id"), m["request_id"])
		assert.Equal(t, "search_orders", m["tool"])
	})
	t.Run("rewritten in between", func(t *testing.T) {
		gz := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				var b bytes.Buffer
				zw := gzip.NewWriter(&b)
				_, _ = zw.Write(rec.Body.Bytes())
				_ = zw.Close()
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Content-Type", "application/octet-stream")
				w.WriteHeader(rec.Code)
				_, _ = w.Write(b.Bytes())
			})
		}
		rec := httptest.NewRecorder()
		New(WithLogger(quiet))(gz(tool)).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/search_orders", nil))
		require.Equal(t, 400, rec.Code)
		assert.Empty(t, rec.Header().Get("Content-Encoding"))
		assert.Equal(t, toolerr.ContentTypeProblem, rec.Header().Get("Content-Type"))
		assert.Equal(t, "bad limit", problem(t, rec.Body.Bytes())["detail"])
	})
	t.Run("status changed in between", func(t *testing.T) {
		// A middleware that answers with another error status: the
		// rendering is stale and the held-back response is what is
		// replaced, as any raw error response.
		other := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(httptest.NewRecorder(), r)
				http.Error(w, "upstream said no", http.StatusServiceUnavailable)
			})
		}
		rec := httptest.NewRecorder()
		New(WithLogger(quiet))(other(tool)).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/search_orders", nil))
		assert.Equal(t, 503, rec.Code)
		assert.NotEqual(t, toolerr.CodeValidationFailed, problem(t, rec.Body.Bytes())["code"])
	})
}

// TestToolUnderForeignScopeIsSanitized: a middleware between New and a
// Tool that starts a request scope of its own (with no text filter) does
// not let an unsanitized text through: the adapter sees that its scope saw
// no rendering and sanitizes the error itself.
func TestToolUnderForeignScopeIsSanitized(t *testing.T) {
	const secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	tool := Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "card rejected with key "+secret)
	})
	foreign := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(reqscope.New(r.Context(), "foreign-1", "")))
		})
	}
	rec := httptest.NewRecorder()
	New(WithLogger(quiet))(foreign(tool)).ServeHTTP(rec, httptest.NewRequest("POST", "/tools/charge", nil))
	require.Equal(t, 400, rec.Code)
	assert.NotContains(t, rec.Body.String(), secret)
	assert.Equal(t, toolerr.CodeValidationFailed, problem(t, rec.Body.Bytes())["code"])
}
