package toolerrgin

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/toolerr/toolerr/middleware"
)

// Routes returns a middleware.WithToolRoutes function that lists the
// routes of engine, "METHOD /path" ("GET /orders/:id"), for the
// TOOL_NOT_FOUND of a path no route matches to name the nearest:
//
//	r := gin.New()
//	r.Use(toolerrgin.Middleware(middleware.WithToolRoutes(toolerrgin.Routes(r))))
//
// Middleware finds the engine itself when it is the handler of the
// http.Server serving the request (r.Run, http.Server{Handler: r},
// httptest.NewServer(r)); Routes is for an engine behind another handler
// (otelhttp, h2c), or for a filtered list. The routes are listed when
// such an error happens, so routes added after Middleware count.
func Routes(engine *gin.Engine) func() []string {
	return func() []string {
		routes := engine.Routes()
		out := make([]string, len(routes))
		for i, rt := range routes {
			out[i] = rt.Method + " " + rt.Path
		}
		return out
	}
}

// reportRoutes gives the middleware the routes of the gin engine serving
// the request of ctx, when that engine is its http.Server's handler.
func reportRoutes(ctx context.Context) {
	srv, _ := ctx.Value(http.ServerContextKey).(*http.Server)
	if srv == nil {
		return
	}
	if engine, ok := srv.Handler.(*gin.Engine); ok {
		middleware.ReportRoutes(ctx, Routes(engine))
	}
}
