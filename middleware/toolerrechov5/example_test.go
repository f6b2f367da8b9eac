package toolerrechov5_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/labstack/echo/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrechov5"
)

// ExampleMiddleware mounts toolerr on echo in one line: a handler returns
// errors in echo's idioms, and the agent gets toolerr errors.
func ExampleMiddleware() {
	e := echo.New()
	e.Use(toolerrechov5.Middleware())
	e.POST("/orders/:id/cancel", func(c *echo.Context) error {
		return toolerr.Default().New(toolerr.CodeConflict, "Order 42 was shipped already.")
	})
	e.GET("/orders/:id", func(c *echo.Context) error {
		return echo.NewHTTPError(http.StatusNotFound, "Order "+c.Param("id")+" does not exist.")
	})

	for _, req := range []*http.Request{
		httptest.NewRequest(http.MethodPost, "/orders/42/cancel", nil),
		httptest.NewRequest(http.MethodGet, "/orders/7", nil),
		httptest.NewRequest(http.MethodGet, "/no/such/tool", nil),
	} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		got, err := toolerr.Parse(rec.Body.Bytes())
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(rec.Code, got.Code, got.Tool, got.Detail)
	}
	// Output:
	// 409 CONFLICT /orders/:id/cancel Order 42 was shipped already.
	// 404 NOT_FOUND /orders/:id Order 7 does not exist.
	// 404 TOOL_NOT_FOUND  The tool does not exist
}

// A call to a mistyped tool path is told the route it most plausibly
// meant: Middleware lists the echo's routes itself. Routes lists them, for
// a filtered list given with middleware.WithToolRoutes.
func ExampleRoutes() {
	e := echo.New()
	e.Use(toolerrechov5.Middleware())
	e.POST("/tools/search_orders", func(c *echo.Context) error { return c.JSON(http.StatusOK, map[string]any{}) })
	e.GET("/orders/:id", func(c *echo.Context) error { return c.JSON(http.StatusOK, map[string]any{}) })

	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/search_order", nil))
	got, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, got.Code, got.SuggestedValue)
	fmt.Println(len(toolerrechov5.Routes(e)()))
	// Output:
	// 404 TOOL_NOT_FOUND POST /tools/search_orders
	// 2
}
