// Package toolerrmcpgo makes the failures of the tools of an mcp-go server
// (github.com/mark3labs/mcp-go) reach the agent as toolerr errors, as
// package middleware/mcptool does for the official Go MCP SDK, in one
// line at server construction:
//
//	s := server.NewMCPServer("orders", "1.0.0", server.WithRecovery())
//	toolerrmcpgo.Install(s)
//	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("order_id", mcp.Required())), refund)
//	mux := http.NewServeMux()
//	mux.Handle("/mcp", middleware.New()(server.NewStreamableHTTPServer(s)))
//
// A failed call becomes a tool result, not a protocol error:
//
//	CallToolResult{
//		IsError:           true,
//		Meta:              {"io.toolerr/problem": <the problem object, as JSON>},
//		StructuredContent: <the same, only when the tool lists no outputSchema>,
//		Content:           [TextContent{<the error's observation, toolerr.Error.AppendObservation>}],
//	}
//
// The text is complete (code, category, retryability, field, allowed and
// suggested values, hint, intent and request id, one per line): agent
// runtimes (LangGraph's ToolNode, the Vercel AI SDK, the OpenAI Agents
// SDK) hand the model an error result's text content only. The problem
// object is in _meta always, and is the structuredContent only of a tool
// without an outputSchema: clients validate structuredContent against the
// outputSchema, and the official TypeScript SDK throws on a problem object
// there.
//
// What happens to each kind of failure (mcp-go alone sends a returned
// error as a JSON-RPC error -32603 whose message is the error's text, and
// a panic the same way under server.WithRecovery):
//
//   - a *toolerr.Error anywhere in the returned error's chain is used,
//     every string of it sanitized; a vendor's error read by
//     translate.Response keeps its code and the vendor's message;
//   - a Go error the classifier knows (deadline, cancellation, connection
//     failures) is classified, with the intent the handler recorded with
//     toolerr.RecordIntent; any other becomes INTERNAL_ERROR. The Go
//     error's text goes to the log only, never to the client;
//   - a panic becomes INTERNAL_ERROR, with or without server.WithRecovery,
//     in either order: the adapter recovers inside its middleware, and
//     reads the error WithRecovery makes of a panic when WithRecovery runs
//     inside it. The value and stack go to the log only;
//   - arguments that break the tool's input schema become the
//     VALIDATION_FAILED of package argcheck, with every violation, its
//     JSON pointer, allowed values and repair, and example_request; with
//     server.WithInputSchemaValidation, mcp-go answers them before any tool
//     middleware ("input schema validation failed: /amount:
//     &{Got:900/1 Want:500/1}") and the adapter's OnSuccess hook replaces
//     that answer. Without it the handler runs: a refusal of its own
//     through mcp-go's accessors (request.RequireString and friends,
//     request.BindArguments) becomes VALIDATION_FAILED naming the field,
//     with argcheck's violations when the arguments break the schema. No
//     value is ever invented;
//   - a handler that returns neither a result nor an error gets
//     INTERNAL_ERROR;
//   - an mcp.URLElicitationRequiredError is the handler asking the client
//     for a URL elicitation, a protocol error by MCP's rule, and is passed
//     on untouched; so are mcp-go's own protocol errors (malformed params,
//     an unknown tool without [WithUnknownToolResult]);
//   - a result the handler returned without an error, IsError or not,
//     passes untouched, except that the secrets and payment data of a
//     failed one's text content are redacted (its words stay: a card
//     number becomes "[card ending 4242]").
//
// Each error carries the tool's name and a request id, also at the end of
// its text, since hints tell the model to escalate with it. The tool's
// annotations decide whether a timeout is retryable: a tool is idempotent
// when it is read-only (readOnlyHint) or says so (idempotentHint), else as
// [WithIdempotent] says.
//
// # One request id per call
//
// Each call runs under a request scope of its own, so that its ids and
// what its handler records (toolerr.RecordIntent) are its own. mcp-go's
// streamable HTTP server (server.NewStreamableHTTPServer, stateless or
// stateful) runs a call under the context of the POST that carried it and
// hands the handler that POST's headers (CallToolRequest.Header); mounted
// under toolerr's middleware.New, the call's request id is the
// X-Request-Id of that POST's response and its trace id that of the
// POST's span, both read from the headers the middleware writes on the
// POST (Toolerr-Request-Id, Toolerr-Trace-Id) and validated.
// mcp-go's SSE server (server.NewSSEServer) answers each POST 202 and runs
// its call after, under that POST's context and headers: the call's ids
// are that POST's too, never the ids of the GET that carries the stream.
// Over stdio or in process the ids are those of the context's request
// scope, if any; otherwise, and over HTTP without the middleware, a new
// request id and no trace id. Every failure is recorded once: a
// "toolerr.error" span, the toolerr.errors counter and one log record
// whose cause has secrets redacted.
//
// # Unknown tools
//
// mcp-go answers a call of a tool it does not have with a protocol error
// that many agent runtimes never show the model. With
// [WithUnknownToolResult] the call gets a TOOL_NOT_FOUND tool result
// naming the nearest of the tools the client can call (as tools/list
// answers it, session tools and the server's tool filters included). To
// do so [Install] registers one hidden tool, "toolerr.unknown_tool",
// which tools/list never shows but s.ListTools and s.GetTool do; see
// unknown.go for how and for the limits.
//
// # At most once
//
// With [WithIdempotency], a retried call of a tool that is not read-only
// runs once: the client sends an idempotency key in the call's _meta
// ([MetaIdempotencyKey]) or in the Idempotency-Key header of the POST, and
// a retry with the same key gets the first call's result, marked
// [MetaReplayed], without running the handler again. A keyless repeat of
// a call of a tool that modifies (same caller, tool and arguments, within
// the window) is DUPLICATE_ACTION. Keys and the guard are scoped by the
// caller: the POST's Authorization header, else the MCP session.
//
//	s := server.NewMCPServer("orders", "1.0.0")
//	toolerrmcpgo.Install(s, toolerrmcpgo.WithIdempotency(nil))
//	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("order_id", mcp.Required()),
//		mcp.WithDestructiveHintAnnotation(false)), refund)
//
// Whether a tool modifies is what its annotations say, read with one rule
// for mcp-go. mcp.NewTool fills in all four hints with MCP's defaults
// (readOnlyHint false, destructiveHint true, idempotentHint false,
// openWorldHint true), so a hint equal to its default cannot be told from
// one the author never gave, and counts as not given when all four are
// set; when one of them is nil (an mcp.Tool literal,
// mcp.NewToolWithRawSchema, mcp.WithToolAnnotation), every hint set is the
// author's. A tool made with mcp.NewTool is thus guarded against keyless
// repeats when it says mcp.WithDestructiveHintAnnotation(false), and not
// when it says nothing of its effects: a read tool that does not declare
// readOnlyHint is never refused for asking twice. The limit: an
// mcp.NewTool tool that says destructiveHint true, or readOnlyHint false,
// says what the defaults say and is not guarded; declare its hints with
// mcp.WithToolAnnotation to have it guarded. Keys work for every tool
// whose readOnlyHint is not true. See [WithIdempotency] for what is kept
// and what runs again.
//
// # Conformance
//
// The adapter runs the conformance suite of toolerr's MCP adapters
// (package middleware/mcptest) in its tests, stateless and stateful, with
// the go-sdk's client and the official TypeScript SDK's: the same results
// as package middleware/mcptool gives for the official Go SDK. Its
// stateful server serves the protocol versions before 2026-07-28 only
// (server.WithStreamableHTTPProtocolVersions), since 2026-07-28 has no
// sessions and mcp-go serves a client that speaks it without one.
//
// # Placement
//
// Call [Install] once, right after server.NewMCPServer and before the
// server serves. Tool middlewares added after it run inside the adapter;
// an error that a middleware added before it returns itself reaches the
// client as mcp-go sends it.
package toolerrmcpgo
