package toolresult

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

func TestResultFallbackTools(t *testing.T) {
	search := middleware.Tool("lookup_order", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "No order 42.")
	})
	srv := httptest.NewServer(middleware.New(middleware.WithFallbacks("lookup_order",
		toolerr.Fallback{Tool: "search_orders", On: []toolerr.Category{toolerr.CategoryNotFound}}))(search))
	t.Cleanup(srv.Close)
	for _, accept := range []string{"application/json", "text/plain", "text/markdown"} {
		req, err := http.NewRequest("GET", srv.URL, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		r, err := FromResponse(resp)
		_ = resp.Body.Close()
		require.NoError(t, err)
		require.True(t, r.IsError)
		assert.Equal(t, []string{"search_orders"}, r.FallbackTools(), accept)
		assert.Contains(t, r.Text, "search_orders", "the model reads it too")
	}
	assert.Nil(t, Result{Text: "ok"}.FallbackTools())
	assert.Nil(t, FromError(toolerr.Default().New(toolerr.CodeNotFound, "")).FallbackTools())
}
