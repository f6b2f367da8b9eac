package middleware_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware"
)

// toolOfFailure serves a ServeMux whose one route fails with a bare 502
// behind middleware.New(opts...) on a real server, calls it, and returns
// the tool the problem object names.
func toolOfFailure(t *testing.T, opts ...middleware.Option) any {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /tools/search_orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream exploded", http.StatusBadGateway)
	})
	srv := httptest.NewServer(middleware.New(opts...)(mux))
	t.Cleanup(srv.Close)
	resp, err := http.Post(srv.URL+"/tools/search_orders/7", "application/json", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m), "a problem object: %s", body)
	return m["tool"]
}

// TestWithToolNamePublic: the function given to WithToolName names the
// tool in the error; an empty answer falls back to the route pattern,
// which is also what names it without the option.
func TestWithToolNamePublic(t *testing.T) {
	assert.Equal(t, "/tools/search_orders/{id}", toolOfFailure(t), "the default is the ServeMux pattern without its method")
	assert.Equal(t, "search_orders", toolOfFailure(t, middleware.WithToolName(func(r *http.Request) string {
		if r.URL.Path == "/tools/search_orders/7" {
			return "search_orders"
		}
		return "wrong"
	})))
	assert.Equal(t, "/tools/search_orders/{id}", toolOfFailure(t, middleware.WithToolName(func(*http.Request) string { return "" })),
		"an empty name falls back to the default")
}
