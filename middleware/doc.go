// Package middleware makes every failure of a tool endpoint reach the agent
// as one structured, sanitized, traced toolerr error.
//
// Mount [New] around the tool handlers, and write handlers that return
// errors with [Tool] or [ToolFunc]:
//
//	r := chi.NewRouter()
//	r.Use(middleware.New())
//	r.Post("/tools/refund", middleware.ToolFunc("refund", func(w http.ResponseWriter, r *http.Request) error {
//		req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, stripeURL+"/v1/refunds", r.Body)
//		if err != nil {
//			return err
//		}
//		resp, err := stripe.Do(req)
//		if err != nil {
//			return err // a timeout becomes UPSTREAM_TIMEOUT, retryable when idempotent
//		}
//		defer resp.Body.Close()
//		if err := translate.Response(resp); err != nil {
//			return err // the vendor's error, classified
//		}
//		w.WriteHeader(http.StatusCreated)
//		_, err = io.Copy(w, resp.Body)
//		return err
//	}))
//
// What the middleware does with each kind of failure:
//
//   - a returned *toolerr.Error is rendered as it is, its text sanitized;
//   - a returned Go error is classified (network, context) or becomes
//     INTERNAL_ERROR; its text goes to the log only;
//   - a raw error response (status 400 or more: an HTML 502 page, a vendor
//     JSON body, plain text) is buffered up to a cap, translated,
//     classified, sanitized and replaced;
//   - a panic becomes INTERNAL_ERROR, or aborts the connection when the
//     response had already started.
//
// A response below 400 passes through untouched and unbuffered: Flush,
// Hijack, io.Copy's ReadFrom and http.ResponseController keep working.
//
// Code written in a framework's idiom, or a framework adapter
// (toolerrgin, toolerrecho, toolerrhuma), hands its error to the
// middleware with [ReportError] and names the tool with [NameTool]: the
// middleware renders the error once, on the way out, as it renders a Tool's.
// A response the middleware leaves unsent when it returns stays
// uncommitted, so a framework error handler that writes after it (echo's
// HTTPErrorHandler behind echo.WrapMiddleware) still reaches the client:
// never an empty 200.
//
// Connect, gRPC and gRPC-Web requests keep their protocol: the middleware
// recognises them by the request (content type, Connect-Protocol-Version,
// ?connect=v1), sets their ids and leaves their responses, errors
// included, to the handler; package toolerrconnect's interceptor
// sanitizes and classifies their errors inside the protocol.
//
// A captured failure blames a downstream (upstream, the UPSTREAM_* codes)
// only with evidence of one: a vendor or gateway the translators
// recognise, a vendor the handler named with toolerr.RecordVendor, an error
// from translate or retrygate, or a network error of an outbound call.
// Anything else is the service's own: a 5xx it wrote is INTERNAL_ERROR, a
// timeout TOOL_TIMEOUT, the router's 404 TOOL_NOT_FOUND (listing the
// service's routes nearest the one called, see [WithToolRoutes]), and a
// 4xx keeps the status the application chose.
//
// Every error is recorded on the current span (toolerr.code; for a 5xx
// also error.type, one exception event and status Error), counted in
// toolerr.errors and, when no mapping explained a downstream failure, in
// toolerr.upstream.unmapped, and logged once with its code, category,
// status, request id and trace id.
package middleware
