package toolerrecho

import (
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// Middleware returns the toolerr middleware for echo v4, built once from
// opts (the options of [middleware.New]):
//
//	e := echo.New()
//	e.Use(toolerrecho.Middleware())
//
// For each request it runs [middleware.New] around the rest of the chain:
// echo's response writes through the middleware's recorder, and the
// request the middleware made (its ids in the context) is the one the
// handler sees. It names the tool after the route's template (c.Path(),
// "/orders/:id"), maps the error the chain returned (see the package
// documentation) and hands it to the middleware, which renders it once on
// the way out, with the request's id, trace id and tool. echo is then
// told nothing failed, so its HTTPErrorHandler writes no second response;
// an error the middleware did not take (a Connect or gRPC request, whose
// errors stay in their protocol) goes back to echo as it would without
// toolerr.
//
// Mount it with e.Use (after routing), or with e.Pre to cover the errors
// of other Pre middlewares too, after otelecho when it is used; echo's
// RequestID and Recover may come before or after it. The echo
// response that middlewares before it see stays truthful: its Status,
// Size and Committed are those of what the client received, the error
// included.
func Middleware(opts ...middleware.Option) echo.MiddlewareFunc {
	core := middleware.New(opts...)
	m := newMapper(&routeSet{})
	// A call and the middleware's handler around it are made once and
	// reused, request after request. (echo v4 applies its middlewares to
	// the handler anew for each request: the pool is the middleware's.)
	calls := &sync.Pool{New: func() any {
		k := &call{m: m}
		k.h = core(k)
		return k
	}}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			k := calls.Get().(*call)
			err := k.run(c, next)
			k.c, k.next, k.err, k.taken = nil, nil, nil, false
			calls.Put(k)
			return err
		}
	}
}

// call is one request's run of the rest of the echo chain under the
// middleware.
type call struct {
	m *mapper
	h http.Handler // the middleware, around this call

	c     echo.Context
	next  echo.HandlerFunc
	err   error // what the chain returned
	taken bool  // the middleware took err, to render or log
}

// run runs the rest of the chain for c under the middleware and returns
// what echo is to be told: nil, unless the middleware did not take the
// chain's error.
func (k *call) run(c echo.Context, next echo.HandlerFunc) error {
	k.c, k.next = c, next
	outer := c.Response()
	defer c.SetResponse(outer)
	// outer is the middleware's writer: what it sends, the error included,
	// passes through echo's bookkeeping (Status, Size, Committed).
	k.h.ServeHTTP(outer, c.Request())
	if k.err != nil && !k.taken {
		return k.err
	}
	return nil
}

// ServeHTTP runs the rest of the chain with w, the middleware's recorder,
// as the echo response's writer, and r, the middleware's request.
func (k *call) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := k.c
	c.SetRequest(r)
	res := echo.NewResponse(w, c.Echo())
	c.SetResponse(res)
	ctx := r.Context()
	if !k.nameTool(r, c) {
		// Not routed yet (mounted with e.Pre, echo routes inside next), or
		// no route: named once routing is done, before a panic is
		// recovered too.
		defer k.nameTool(r, c)
	}
	if k.err = k.next(c); k.err != nil {
		k.taken = middleware.ReportError(ctx, k.m.toolError(c, k.err))
	} else if res.Committed && res.Status == http.StatusNotFound && k.m.routes.tool(c) == "" {
		// A not-found route's own 404 (e.RouteNotFound writing
		// c.JSON(404, …)): the path names no tool.
		middleware.ReportRoutes(ctx, Routes(c.Echo()))
		middleware.ReportError(ctx, toolerr.Default().New(toolerr.CodeToolNotFound, ""))
	}
}

// nameTool names the tool of r, the middleware's request, after the route
// echo matched for c, and reports whether there was one. Without a route
// there is no tool either, not the pattern of a router before echo's (or,
// in echo v5, the not-found route's, which echo sets on the request): r is
// the middleware's own copy of the request, its pattern cleared.
func (k *call) nameTool(r *http.Request, c echo.Context) bool {
	tool := k.m.routes.tool(c)
	if tool == "" {
		r.Pattern = ""
		return false
	}
	middleware.NameTool(r.Context(), tool)
	return true
}
