package toolerrecho_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// BenchmarkEcho runs echo alone and echo with toolerr side by side, for a
// 200 JSON response passed through and for a returned conflict (echo's
// HTTPError 409 alone; a *toolerr.Error under toolerr), so that their
// ratio can be read from one run:
//
//	go test -run '^$' -bench BenchmarkEcho -benchmem -count 6
func BenchmarkEcho(b *testing.B) {
	build := func(with bool) *echo.Echo {
		e := echo.New()
		if with {
			e.Use(toolerrMW())
		}
		e.GET("/orders/:id", func(c echo.Context) error {
			return c.JSON(http.StatusOK, map[string]any{"id": c.Param("id"), "status": "shipped"})
		})
		e.POST("/orders/:id/cancel", func(c echo.Context) error {
			if with {
				return conflict
			}
			return echo.NewHTTPError(http.StatusConflict, "Order 42 was shipped already.")
		})
		return e
	}
	cases := []struct {
		name, method, path string
		status             int
	}{
		{"ok", http.MethodGet, "/orders/42", http.StatusOK},
		{"error", http.MethodPost, "/orders/42/cancel", http.StatusConflict},
	}
	for _, tc := range cases {
		for _, with := range []bool{false, true} {
			name := tc.name + "/echo"
			if with {
				name += "+toolerr"
			}
			e := build(with)
			b.Run(name, func(b *testing.B) {
				req := httptest.NewRequest(tc.method, tc.path, nil)
				b.ReportAllocs()
				for b.Loop() {
					clear(req.Header) // a new request's: the middlewares stamp ids in it
					rec := httptest.NewRecorder()
					e.ServeHTTP(rec, req)
					if rec.Code != tc.status {
						b.Fatalf("status %d, want %d", rec.Code, tc.status)
					}
				}
			})
		}
	}
}
