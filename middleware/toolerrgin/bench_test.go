package toolerrgin_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// BenchmarkGin runs gin alone and gin with toolerr side by side, in one
// process, through engine.ServeHTTP (no network): a 200 JSON pass-through,
// and an error path (gin's own c.JSON(409, …) alone against
// c.AbortWithError(409, conflict) under toolerr). The middleware logs to
// a discarding handler, so the log's I/O is not measured.
func BenchmarkGin(b *testing.B) {
	conflictErr := toolerr.Default().New(toolerr.CodeConflict, "Order 42 was changed by another call.").
		WithField("/version")
	ok := func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"id": c.Param("id"), "status": "open"}) }
	engines := []struct {
		name   string
		engine *gin.Engine
	}{
		{"pass/gin", engine(nil, ok)},
		{"pass/gin+toolerr", engine(toolerrgin.Middleware(middleware.WithLogger(slog.New(slog.DiscardHandler))), ok)},
		{"error/gin", engine(nil, func(c *gin.Context) {
			c.JSON(http.StatusConflict, gin.H{"error": "Order 42 was changed by another call.", "field": "/version"})
		})},
		{"error/gin+toolerr", engine(toolerrgin.Middleware(middleware.WithLogger(slog.New(slog.DiscardHandler))),
			func(c *gin.Context) { _ = c.AbortWithError(http.StatusConflict, conflictErr) })},
	}
	for _, e := range engines {
		b.Run(e.name, func(b *testing.B) {
			tmpl := httptest.NewRequest(http.MethodGet, "/orders/42", nil)
			b.ReportAllocs()
			for b.Loop() {
				// A request of its own each time, as a server makes (the
				// middleware stamps ids in the request's headers), copied
				// from a template: parsing one would dwarf what is measured.
				r := *tmpl
				r.Header = make(http.Header, 2)
				req := &r
				w := httptest.NewRecorder()
				e.engine.ServeHTTP(w, req)
				if w.Code != http.StatusOK && w.Code != http.StatusConflict {
					b.Fatalf("status %d", w.Code)
				}
			}
		})
	}
}

// engine is a gin engine with mw (when not nil) and h on /orders/:id.
func engine(mw gin.HandlerFunc, h gin.HandlerFunc) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if mw != nil {
		r.Use(mw)
	}
	r.GET("/orders/:id", h)
	return r
}
