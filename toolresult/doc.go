// Package toolresult gives an agent runtime written in Go what it passes
// on to the model for one tool call: the text, and whether the call
// failed. A failure's text is the error's observation
// (toolerr.Error.AppendObservation), which keeps every member an agent
// acts on, because most runtimes hand the model text, not JSON members.
//
// [FromError] takes a Go error (from an in-process tool, from mcptool, or
// from the HTTP client that called a tool); [FromResponse] takes the HTTP
// response of a tool served under toolerr's middleware, or of any other
// HTTP tool. A [Result] converts to the shapes the model APIs take, as
// plain structs that encode to their documented JSON: OpenAI's
// function_call_output item (Responses API) and tool message (Chat
// Completions), and Anthropic's tool_result block. The package depends on
// no model SDK.
//
// # Reading every rendering
//
// FromResponse reads each rendering a toolerr server answers with:
// problem+json, the envelope {"ok":false,"error":{…}}, and the
// observation as text/plain or text/markdown ([ParseObservation], which
// recognises an observation strictly and reads MCP text content too). The
// round trip is lossless for the members an agent acts on:
//
//	code, category, detail (when it says more than the title),
//	retryable, retry_after_ms, max_attempts, field, allowed_values,
//	suggested_value, violations (as the observation lists them),
//	example_request, details, actions, hint, intent, request_id
//
// with texts cut to the contract's limits as the renderer cuts them. What
// the observation leaves out is not recovered from text: errors[] (a
// batch's per-item errors), upstream, tool, trace_id, suggestions, and
// human_hint unless the server rendered it; a runtime that needs them
// asks for JSON. The status is the response's; title, severity and the retry policy come
// from the built-in registry's definition of the code. The tests prove it
// for every built-in code in all four renderings, through a real server.
// A request id or a delay the body lacks is taken from X-Request-Id and
// Retry-After. Every string of a parsed error is sanitized: a tool
// server's body is untrusted.
//
// Result.Text of a failure is always the plain observation rendered from
// the parsed error: one deterministic form, whatever rendering the server
// chose, holding only what was recognised and sanitized. For toolerr's own
// text/plain response it is the text the server sent (JSON objects other
// than ranges with their keys sorted, as toolerr renders maps).
//
// # Failures to reach the tool
//
// FromError classifies a Go error through package classify's Go-error
// rules and says it in the tool's terms: a refused connection is
// TOOL_UNAVAILABLE, retryable; a connection dropped after the call was
// sent is TOOL_UNAVAILABLE and a timeout (the client's, or the context's
// deadline) TOOL_TIMEOUT, both retryable only when the method is
// idempotent, since a POST may have run; a host name that does not
// resolve and a TLS failure are UPSTREAM_MISCONFIGURED, not retryable; a
// cancelled context is CANCELLED. The method is read from net/http's
// *url.Error; [FromRequestError] takes it from the request, and counts an
// Idempotency-Key header, with which any method may be retried. The Go
// error's text, which names the tool's host, never reaches the model.
package toolresult
