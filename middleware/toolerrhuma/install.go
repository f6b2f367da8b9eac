package toolerrhuma

import (
	"bytes"
	"context"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/middleware"
	"go.opentelemetry.io/otel/trace"
)

// installation is one Install: its settings and the argument schemas of
// its API's operations. It is safe for concurrent use.
type installation struct {
	cfg  *config
	oapi *huma.OpenAPI
	// schemas maps an operation (*huma.Operation) to its *opSchema.
	schemas sync.Map
	// reach holds the operations (*huma.Operation) registered on the API
	// Install returned (reach.go).
	reach sync.Map
}

// constructors makes huma's error constructors toolerr's, once per process.
var constructors sync.Once

// Install makes toolerr huma's error model for api, and returns the API to
// register operations on:
//
//	router := chi.NewMux()
//	router.Use(middleware.New())
//	api := toolerrhuma.Install(humachi.New(router, huma.DefaultConfig("Orders", "1.0.0")))
//	huma.Register(api, op, handler)
//
// What it does:
//
//   - it sets huma.NewError and huma.NewErrorWithContext, the package
//     variables huma documents for replacing its error type, to toolerr's
//     constructors. This is a change for the whole process, made once
//     whatever the number of calls: every huma API of the process then
//     builds toolerr errors, installed or not, with or without the toolerr
//     middleware (their codes come from the registry of WithRegistry of the
//     installation serving the request, else toolerr.Default());
//   - it adds a huma middleware to api that names the tool after the
//     operation id (middleware.NameTool), keeps the bytes huma reads of a
//     JSON body (up to WithMaxBodyBytes) for repairs, and, when no toolerr
//     middleware serves the request, gives the request its ids (a valid
//     incoming X-Request-Id, else a new one; the span's trace id);
//   - it adds the toolerr components to api's OpenAPI document (the
//     problem schema, one response per code, x-agent-error-codes) and
//     lists each operation's codes in its x-agent-error-codes, for the
//     operations registered already and those registered later;
//   - it returns a huma group of api (no prefix) whose response
//     transformer binds the errors a handler built without a context
//     (huma.Error404NotFound and friends) to their request: huma accepts a
//     transformer only in the API's config or on a group.
//
// Operations registered on the returned API get every part. Operations
// registered on api itself, or on an API never installed, miss the binding
// of the errors built without a context: such an error renders sanitized,
// with its code and status, but with no request id (nor tool) of its own;
// the toolerr middleware, when it serves the request, fills them in as for
// any error body it captures. Register operations after Install: huma
// documents an operation's error responses with the constructor set at its
// registration. Install logs a warning (slog's default logger) for each
// operation registered out of the returned API's reach.
//
// An error huma builds is a huma.StatusError wrapping a *toolerr.Error. When
// a toolerr middleware serves the request, the error is handed to it
// (middleware.ReportError) and the middleware renders it, once; else huma
// renders it, sanitized, as application/problem+json.
//
// Install is idempotent in effect: installing twice, or on an API already
// installed, adds nothing a request would see twice. Call it at startup,
// where operations are registered: not concurrently with registrations on
// the same API (neither may huma's own), and before any huma API of the
// process serves requests, since huma reads its constructor variables
// without synchronization.
func Install(api huma.API, opts ...Option) huma.API {
	constructors.Do(func() {
		huma.NewError = newError
		huma.NewErrorWithContext = newErrorWithContext
	})
	in := &installation{cfg: newConfig(opts), oapi: api.OpenAPI()}
	api.UseMiddleware(in.middleware)
	in.document(in.oapi)
	g := huma.NewGroup(api)
	g.UseSimpleModifier(in.reached)
	g.UseTransformer(in.transform)
	return g
}

// middleware is the huma middleware of an installation.
func (in *installation) middleware(ctx huma.Context, next func(huma.Context)) {
	c := ctx.Context()
	if stateOf(c) != nil {
		next(ctx) // an installation outside this one serves the request
		return
	}
	op := ctx.Operation()
	if op != nil && op.OperationID != "" {
		middleware.NameTool(c, op.OperationID)
	}
	if toolerr.RequestID(c) == "" {
		// No toolerr middleware: the request's ids, as the middleware
		// would find them.
		rid := ctx.Header("X-Request-Id")
		if !toolerr.ValidRequestID(rid) {
			rid = reqscope.NewRequestID()
		}
		c = reqscope.New(c, rid, spanTraceID(c))
		ctx.SetHeader("X-Request-Id", rid)
	}
	st := &reqState{Context: c, in: in, op: op}
	if in.cfg.maxBody > 0 && jsonContent(op) != nil {
		st.body = bodies.Get().(*bytes.Buffer)
		defer st.release()
	}
	next(&humaContext{adapterContext: ctx, st: st})
}

// transform binds an error built without a request (huma.NewError) to the
// request whose response it is.
func (in *installation) transform(ctx huma.Context, _ string, v any) (any, error) {
	se, ok := v.(*statusError)
	if !ok || se.bound || se.reported {
		return v, nil
	}
	// A handler's own validation error (huma.Error422UnprocessableEntity
	// with details) is not repaired: huma accepted the body, and what the
	// handler found wrong is not the schema's to fix.
	cfg := in.cfg
	if st := stateOf(ctx.Context()); st != nil {
		cfg = st.in.cfg
	}
	return bind(ctx, cfg, se.err, nil), nil
}

// spanTraceID returns the trace id of the span in ctx, or "".
func spanTraceID(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.HasTraceID() {
		return ""
	}
	return sc.TraceID().String()
}
