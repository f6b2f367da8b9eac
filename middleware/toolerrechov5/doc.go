// Package toolerrechov5 mounts toolerr on echo v5 in one line, the way
// otel-contrib's otelecho mounts tracing on echo v4:
//
//	e := echo.New()
//	e.Use(toolerrechov5.Middleware())
//
// Every failure of an echo handler then reaches the agent as one
// structured, sanitized, traced toolerr error, with the request's id in
// X-Request-Id and request_id, and the route's template ("/orders/:id")
// as its tool. What each echo idiom becomes:
//
//   - return toolerrErr: the error as it is (code, status, field…), sanitized;
//   - return echo.NewHTTPError(404, "…"): NOT_FOUND, 404, the message as the
//     detail, sanitized;
//   - a path no route matches: TOOL_NOT_FOUND, no tool: echo's ErrNotFound, or
//     the 404 of a not-found route (e.RouteNotFound, the one a group adds),
//     with the echo's routes nearest the call in allowed_values and, when
//     one alone is meant, suggested_value (see [Routes]);
//   - return echo.ErrNotFound (a handler's): NOT_FOUND: the route exists, the
//     resource does not;
//   - return echo.ErrMethodNotAllowed: METHOD_NOT_ALLOWED, Allow kept, its
//     methods the allowed_values;
//   - return echo.NewHTTPError(4xx, "…"): the local status row (409 CONFLICT,
//     429 RATE_LIMITED…), the status kept;
//   - return echo.NewHTTPError(5xx, "…"): INTERNAL_ERROR (503
//     TOOL_UNAVAILABLE, 504 TOOL_TIMEOUT); the message to the log only;
//   - return c.Bind(&args) (bad JSON): VALIDATION_FAILED; a wrong type names
//     its field and the type it must have;
//   - return errors.New("…"): INTERNAL_ERROR; the text to the log only;
//   - return ctx.Err(): CANCELLED or TOOL_TIMEOUT, as the middleware
//     classifies it;
//   - return err from an outbound call: classified by the middleware
//     (UPSTREAM_TIMEOUT…);
//   - c.JSON(502, …), c.HTML(502, page): the captured response, translated and
//     classified; no HTML reaches the agent;
//   - panic(…): INTERNAL_ERROR, with or without echo's Recover, before or
//     after it;
//   - *echo.BindingError (param binders): VALIDATION_FAILED naming the
//     parameter;
//   - c.JSON(200, …), c.Stream, Flush: passed through untouched.
//
// Any error with an echo status (echo.HTTPStatusCoder: *echo.HTTPError,
// echo's sentinels such as echo.ErrNotFound, *echo.BindingError) is read by
// that status. The error an *echo.HTTPError wraps never reaches the body;
// a wrapped error that explains the failure better than the status (the
// request's context ended, http.MaxBytesReader cut the body, an outbound
// call failed) decides the code instead.
//
// The errors the adapter builds from echo's statuses come from the
// built-in registry ([toolerr.Default]); errors the handlers build from a
// registry of their own keep their codes, as any *toolerr.Error does.
//
// Request ids: with echo's RequestID middleware, before or after this one,
// the client sees one id, the same in X-Request-Id and request_id. The
// toolerr middleware does it for any framework: the id a RequestID before
// it set on the response is the request's (a client's invalid id is
// replaced, in the response too), and the request's X-Request-Id holds
// toolerr's id for a RequestID mounted after it. Only RequestID's default
// header is read. Under middleware.GenerateAlways toolerr takes no id it
// did not make, so a RequestID before it keeps its own id to itself: the
// client still sees one id, toolerr's.
//
// Tracing: otel-contrib's otelecho instruments echo v4 only; wrap the echo
// v5 server in otelhttp (otelhttp.NewHandler(e, "…")). The error's trace_id
// is the trace of otelhttp's span, which the middleware also records the
// error on.
//
// Mounting echo.WrapMiddleware(middleware.New()) instead works too, since
// the middleware leaves the response it did not send to echo's error
// handler, but then echo's own error body, not a toolerr error, reaches the
// agent.
package toolerrechov5
