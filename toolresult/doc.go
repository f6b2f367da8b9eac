// Package toolresult gives an agent runtime written in Go what it passes
// on to the model for one tool call: the text, and whether the call
// failed. A failure's text is the error's observation
// (toolerr.Error.AppendObservation), which keeps every member an agent
// acts on, because most runtimes hand the model text, not JSON members.
//
// [FromError] takes a Go error (from an in-process tool, or from
// mcptool); [FromResponse] takes the HTTP response of a tool served under
// toolerr's middleware, or of any other HTTP tool. A [Result] converts to
// the shapes the model APIs take, as plain structs that encode to their
// documented JSON: OpenAI's function_call_output item (Responses API) and
// tool message (Chat Completions), and Anthropic's tool_result block. The
// package depends on no model SDK.
package toolresult
