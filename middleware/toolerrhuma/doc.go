// Package toolerrhuma makes toolerr the error model of a huma v2 API
// (github.com/danielgtaylor/huma/v2): every failure of a huma operation
// reaches the agent as one structured, sanitized, traced toolerr error.
//
// Mount it as for any router, plus one line on the API:
//
//	router := chi.NewMux()
//	router.Use(middleware.New())
//	api := toolerrhuma.Install(humachi.New(router, huma.DefaultConfig("Orders", "1.0.0")))
//	huma.Register(api, op, handler)
//
// The router keeps the toolerr middleware, as for chi or ServeMux.
//
// humago (net/http's ServeMux) mounts the same way, the middleware wrapping
// the mux. Register operations on the API Install returns (see [Install]
// for why, and for its process-wide change of huma's error constructors).
//
// What each huma idiom becomes:
//
//   - huma's validation (422, errors[] of *huma.ErrorDetail{Message,
//     Location}): VALIDATION_FAILED (400), one violation per detail;
//     body.items[2].name is /items/2/name, query.page stays query.page;
//     argcheck's repairs (suggested_value, example_request) from the
//     operation's body schema.
//   - a handler's *toolerr.Error: kept, with its code, status, field and
//     details.
//   - huma.Error404NotFound("…") and the other huma.ErrorXXX: the code of
//     the status in the core's local rows (NOT_FOUND 404, CONFLICT 409,
//     RATE_LIMITED 429, TOOL_UNAVAILABLE 503, a 502 INTERNAL_ERROR): no
//     UPSTREAM_* without evidence of a downstream.
//   - any other Go error a handler gives back: classified as the middleware
//     classifies a handler's error (a deadline is TOOL_TIMEOUT, else
//     INTERNAL_ERROR); its text is for the logs only.
//   - huma.Error422UnprocessableEntity("…", &huma.ErrorDetail{…}) from a
//     handler: VALIDATION_FAILED, its details as violations, no repair:
//     huma accepted the body, and what the handler found wrong is not the
//     schema's to fix.
//   - a Resolver's errors: as above, in huma's validation error.
//   - huma.WriteErr and huma.NewError(…): as above.
//   - huma.Status304NotModified(): huma's own; a 304 is no error.
//   - a panic (huma has no recovery of its own): recovered by the toolerr
//     middleware as INTERNAL_ERROR.
//   - the router's 404 and 405: TOOL_NOT_FOUND, and METHOD_NOT_ALLOWED with
//     Allow (the middleware's). TOOL_NOT_FOUND lists the nearest routes:
//     chi's, found by the middleware, behind humachi; the operations
//     [Routes] lists, given with middleware.WithToolRoutes, behind humago.
//   - Operation.OperationID: the tool member of every error of the
//     operation.
//   - Operation.Errors and Operation.Responses: the operation's
//     x-agent-error-codes in the OpenAPI document, with the problem schema
//     and one response per code in its components.
//   - huma's $schema link transformer: leaves the error alone; its body
//     stays toolerr's.
//
// The errors huma builds are huma.StatusErrors that wrap a *toolerr.Error
// (toolerr.From finds it). When the toolerr middleware serves the request,
// the error is handed to it (middleware.ReportError) and the middleware
// renders it once, with the request's ids, logs and span; without the
// middleware huma renders it, sanitized, as application/problem+json with
// the request's X-Request-Id, and a valid toolerr body.
package toolerrhuma
