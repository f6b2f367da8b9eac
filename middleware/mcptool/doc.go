// Package mcptool makes the failures of MCP tool handlers (the official Go
// MCP SDK, github.com/modelcontextprotocol/go-sdk) reach the agent as
// toolerr errors, the way package middleware does for HTTP tools.
//
// Wrap a typed tool handler, or register it with [AddTool]:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "harbor"}, nil)
//	server.AddReceivingMiddleware(mcptool.Middleware())
//	mcptool.AddTool(server, &mcp.Tool{Name: "refund"}, refund)
//
// A failed call becomes a tool result, not a protocol error:
//
//	CallToolResult{
//		IsError:           true,
//		Meta:              {"io.toolerr/problem": <the problem object, as JSON>},
//		StructuredContent: <the same, only when the tool has no outputSchema>,
//		Content:           [TextContent{<the error's observation, toolerr.Error.AppendObservation>}],
//	}
//
// What happens to each kind of failure:
//
//   - a *toolerr.Error anywhere in the returned error's chain is used, its
//     free text (detail, hint, human hint, suggestions) sanitized;
//   - a Go error the classifier knows (timeouts, connection failures,
//     cancellation) is classified; any other becomes INTERNAL_ERROR. The Go
//     error's text goes to the log only, never to the client;
//   - a panic becomes INTERNAL_ERROR; its value and stack go to the log only;
//   - a *jsonrpc.Error (package github.com/modelcontextprotocol/go-sdk/jsonrpc)
//     is a protocol error by the SDK's rule and is passed on as one, as are
//     the SDK's own protocol errors (an unknown tool, malformed params).
//
// Every error gets the tool's name and a request id, also at the end of
// the text line, since hints tell the model to escalate with it.
//
// # One request id per call
//
// The SDK runs every call of a session under the context of the request
// that opened the session, so the ids in that context (toolerr.RequestID,
// toolerr.TraceID, the span) are another request's. Each call therefore
// runs under a request scope of its own, whose ids are, first of:
//
//   - over streamable HTTP (mcp.NewStreamableHTTPHandler, stateful or
//     stateless, SSE or JSON answers) mounted under middleware.New: the
//     ids of the POST that carried the call, which the middleware writes
//     on it (Toolerr-Request-Id and Toolerr-Trace-Id) and the
//     SDK hands the handler (CallToolRequest.Extra.Header). The request id
//     is the X-Request-Id of that POST's response, by the middleware's
//     RequestIDPolicy; the trace id that of its server span. Both are
//     validated as read;
//   - with no HTTP request under the context (stdio, in memory): the
//     request scope of the context, such as one a receiving middleware
//     made for the call (one in the context the server runs under would
//     be every call's);
//   - otherwise a new request id and no trace id: over the SSE transport,
//     which carries every call on the stream of one GET, and over HTTP
//     without the middleware, whose headers are the client's.
//
// What a handler records with toolerr.RecordIntent stays with its call.
//
// # Typed output
//
// The problem object of every failure is in the result's _meta under
// [MetaProblem]. It is the StructuredContent too only for a tool without an
// outputSchema: clients validate StructuredContent against the declared
// schema, and the official TypeScript SDK throws "Structured content does
// not match the tool's output schema" on a problem object there, so the
// agent would get a protocol error instead of the tool error.
//
// The SDK fills StructuredContent from a handler's typed output and, when a
// handler returns an error, keeps only the error's text. A handler whose
// output type is an interface (such as any) gets the whole error result from
// [Wrap] alone ([AddTool] leaves StructuredContent out when the tool sets an
// OutputSchema). For any other output type, which the SDK gives an
// outputSchema, Wrap returns the failure as an error whose text is the
// observation, and [Middleware], installed on the server, adds the problem
// object to _meta. Install it on every server: it also turns a panic of a
// tool that was not wrapped into INTERNAL_ERROR (problem object in _meta
// only) instead of a crash of the server.
//
// # Arguments and unwrapped tools
//
// The SDK rejects arguments that fail a typed tool's input schema before
// the handler runs, with a bare message (in v1.8.0 an IsError result):
// no code, no field. [Middleware] turns that answer into the
// VALIDATION_FAILED of package argcheck for the tool's input schema, with
// every violation, its pointer, allowed values and repair, and
// example_request. It also completes the failures of tools registered with
// plain mcp.AddTool or Server.AddTool, not wrapped: a returned error
// becomes the error [Wrap] would have made. To do so it reads the tool's
// definition with a tools/list request through the handlers below it, on
// failures only, and keeps the compiled schema while the tool is
// unchanged.
//
// # Retried mutations
//
// A tool registered with [AddTool] and [WithIdempotency] runs at most once
// per idempotency key: a client sends the key in the call's _meta
// ([MetaIdempotencyKey]) or in the Idempotency-Key header of the POST that
// carries the call, and a retry gets the first call's result, marked
// [MetaReplayed]. A keyless repeat of a call of a mutating tool (one that
// declares a destructiveHint, and is neither read-only nor idempotent)
// within a minute of a first call that succeeded is refused with
// DUPLICATE_ACTION. Both work per call,
// not per HTTP request, so they hold over streamable HTTP, where every
// JSON-RPC message is a POST of its own, and over stdio; see
// [WithIdempotency].
package mcptool
