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
// Protocols stay protocols. Connect, gRPC and gRPC-Web requests keep their
// protocol: the middleware recognises them by the request (content type,
// Connect-Protocol-Version, ?connect=v1), sets their ids and leaves their
// responses, errors included, to the handler; package toolerrconnect's
// interceptor sanitizes and classifies their errors inside the protocol.
//
// JSON-RPC 2.0 requests (MCP's streamable HTTP, served by the official Go
// MCP SDK or mcp-go, or any JSON-RPC service) are answered in JSON-RPC.
// The middleware recognises them by the request, never by the response:
// MCP's headers (Mcp-Session-Id, Mcp-Protocol-Version), or a POST of JSON
// whose Accept lists both application/json and text/event-stream, or
// whose body starts as a JSON-RPC 2.0 message or batch. The body is looked
// at only when an error is answered (the first 64 KiB the handler read,
// and what it left unread, up to that bound), so a response that passes
// through costs nothing more. For such a request:
//
//   - a response below 400 (an SSE stream included) passes untouched and
//     unbuffered, as any other;
//   - a JSON-RPC error object the library wrote, at any status, is kept:
//     the same status, id and code, its message and every string of its
//     data sanitized, nothing else of it;
//   - any other error (a plain-text or HTML error page, a Tool's or
//     reported error, a panic) becomes a JSON-RPC error object: the
//     request's id as the request spelled it (null for a batch, a
//     notification, a body not valid or not whole, or an id that is not a
//     string or number of at most 256 bytes), code -32700 for a 4xx to a
//     body that is not JSON, -32602 for a 422, -32600 for any other 4xx,
//     -32603 for a 5xx and a panic; the error's sanitized detail as
//     message; the toolerr problem object (code, category, retryable,
//     request_id, trace_id) as data; the error's status (500 for a panic,
//     so that proxies and the SDKs' transports see a failure);
//   - MCP's "session gone", a 404 to a request with an Mcp-Session-Id that
//     is not a JSON-RPC message, is sent as toolerr's text rendering: MCP
//     clients start a new session on it, which the Go SDK's client does
//     only when the body is not a JSON-RPC error;
//   - WWW-Authenticate (401, 403), Allow (405) and a valid Retry-After
//     (429, 503) are kept, as the client acts on them.
//
// Every such error is recorded (span, counter, log) as any other.
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
