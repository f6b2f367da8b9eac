package toolerrecho_test

import (
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrecho"
)

// A fallback declared with middleware.WithFallbacks for the tool echo's
// route names ("/charge") is offered through echo, and the guard holds:
// no mutating fallback after an auth failure.
func TestFallbacksThroughEcho(t *testing.T) {
	e := echo.New()
	e.Use(toolerrecho.Middleware(middleware.WithLogger(quiet),
		middleware.WithFallbacks("/charge",
			toolerr.Fallback{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}, Mutates: true},
			toolerr.Fallback{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}})))
	e.POST("/charge", func(c echo.Context) error {
		return toolerr.Default().New(c.QueryParam("code"), "")
	})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	for code, want := range map[string][]string{
		toolerr.CodeUpstreamUnavailable: {"charge_backup", "charge_status"},
		toolerr.CodeUnauthenticated:     {"charge_status"},
	} {
		_, body := do(t, "POST", srv.URL+"/charge?code="+code, nil, "{}")
		got, err := toolerr.Parse(body)
		require.NoError(t, err, "%s", body)
		assert.Equal(t, "/charge", got.Tool)
		assert.Equal(t, want, toolerr.FallbackTools(got), code)
		assert.Contains(t, got.Hint, "charge_status", code)
	}
}
