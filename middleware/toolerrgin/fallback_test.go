package toolerrgin_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// A fallback declared with middleware.WithFallbacks is offered through gin
// for the tool toolerrgin.Tool names, and the guard holds: no mutating
// fallback after an auth failure.
func TestFallbacksThroughGin(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(toolerrgin.Middleware(middleware.WithFallbacks("charge",
		toolerr.Fallback{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}, Mutates: true},
		toolerr.Fallback{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}})))
	r.POST("/charge", toolerrgin.Tool("charge", func(c *gin.Context) error {
		return toolerr.Default().New(c.Query("code"), "")
	}))
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	for code, want := range map[string][]string{
		toolerr.CodeUpstreamUnavailable: {"charge_backup", "charge_status"},
		toolerr.CodeUnauthenticated:     {"charge_status"},
	} {
		resp, err := http.Post(srv.URL+"/charge?code="+code, "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		require.NoError(t, err)
		got, err := toolerr.Parse(body)
		require.NoError(t, err, "%s", body)
		assert.Equal(t, "charge", got.Tool)
		assert.Equal(t, want, toolerr.FallbackTools(got), code)
		assert.Contains(t, got.Hint, "charge_status", code)
	}
}
