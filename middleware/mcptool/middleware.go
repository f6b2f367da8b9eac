package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// Middleware returns receiving middleware for an MCP server
// (mcp.Server.AddReceivingMiddleware) that completes and guards tool calls:
//
//   - a failure that [Wrap] had to return as an error (typed output) reaches
//     the client with its problem object in _meta ([MetaProblem]);
//   - arguments the SDK rejected (they break the tool's input schema, or do
//     not unmarshal into the handler's type), which the SDK answers with a
//     bare message, become VALIDATION_FAILED with every violation, its
//     field, allowed values and repair (package argcheck), for every tool,
//     wrapped or not;
//   - an error returned by a handler registered with plain mcp.AddTool
//     becomes the same error [Wrap] would have sent;
//   - a panic of a tool handler that was not wrapped, which would otherwise
//     crash the server, becomes an INTERNAL_ERROR result; its value and
//     stack go to the logger only;
//   - with [WithUnknownToolResult], a call of a tool the server does not
//     have, which the SDK answers with a protocol error ("unknown tool"),
//     becomes a TOOL_NOT_FOUND result naming the nearest tools the server
//     lists.
//
// To complete a failure the middleware reads the tool's definition (input
// and output schema) with a tools/list request through the handlers below
// it, on failures only, and keeps the compiled schema. Other methods and
// successful results pass untouched, and so do IsError results a handler
// built itself, but for the secrets and payment data of their text, which
// are redacted. The options configure the errors and their log records, with
// the defaults of [Wrap].
func Middleware(opts ...Option) mcp.Middleware {
	c := newConfig(opts)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok {
				return next(ctx, method, req)
			}
			ctx = c.callContext(ctx, call) // call.go
			// Counted once the SDK has said whether the server has the
			// tool: a name a client made up is no attribute value.
			tool := ""
			if c.ClaimCount(ctx) {
				defer func() { c.CountCall(tool) }()
			}
			defer func() {
				if v := recover(); v != nil {
					// The tool's outputSchema is unknown here: the
					// problem object goes in _meta only.
					res, err = result(c.Panicked(ctx, c.call(call), v), false), nil
				}
			}()
			if call.Params != nil {
				tool = call.Params.Name // unless the SDK says it has no such tool
			}
			res, err = next(ctx, method, req)
			if err != nil && unknownTool(err, call) {
				tool = ""
				if c.UnknownToolResult {
					return c.unknownToolResult(ctx, call, next), nil // unknown_tool.go
				}
			}
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
				res = c.completed(ctx, call, r, next)
			}
			return res, err
		}
	}
}

// completed returns r with what a toolerr failure carries, or r itself
// when r is no failure or already carries it (MetaProblem):
//
//   - a [Wrap] failure the SDK returned as an error (the tool has a typed
//     output, so an outputSchema) gets its problem object in _meta; its
//     structuredContent stays empty, since a problem object there would
//     break that schema;
//   - a failure of the SDK's own (arguments that break the input schema,
//     or do not unmarshal into the handler's type) or of a handler that
//     was not wrapped becomes the error [Wrap] would have sent: arguments
//     that break the tool's input schema are checked with
//     argcheck, so the call gets VALIDATION_FAILED with every violation
//     and its repair; any other returned error is classified. The tool's
//     definition is read through next (tools/list), on failures only.
//
// A result the handler marked IsError itself, with no Go error behind it,
// is left as it is, but for the secrets and payment data of its text,
// which are redacted.
func (c *config) completed(ctx context.Context, call *mcp.CallToolRequest, r *mcp.CallToolResult, next mcp.MethodHandler) mcp.Result {
	if r == nil || !r.IsError {
		return r
	}
	if _, done := r.Meta[MetaProblem]; done {
		return r
	}
	cause := r.GetError()
	if cause == nil {
		return redactOwn(c.Sanitizer, r) // own_error_result.go
	}
	var f *failure
	if !errors.As(cause, &f) {
		return c.unwrapped(ctx, call, cause, next)
	}
	done := *r
	done.Meta = make(mcp.Meta, len(r.Meta)+1)
	for k, v := range r.Meta {
		done.Meta[k] = v
	}
	done.Meta[MetaProblem] = f.Problem
	return &done
}

// unwrapped is the result of a failure that no [Wrap] turned into a
// toolerr error: the SDK's answer to arguments it rejected, or an
// unwrapped handler's error. Only the SDK's rejection is checked against
// the input schema: a handler's own error is the true cause even when the
// arguments also break the schema (the SDK does not validate the
// arguments of a tool registered with Server.AddTool).
func (c *config) unwrapped(ctx context.Context, call *mcp.CallToolRequest, cause error, next mcp.MethodHandler) mcp.Result {
	name := ""
	var args json.RawMessage
	if call.Params != nil {
		name, args = call.Params.Name, call.Params.Arguments
	}
	info := c.lookup(ctx, call, name, next)
	if rejectedArguments(cause) {
		return result(c.Rejected(ctx, c.call(call), c.ArgumentsError(name, info.input, args, cause)), info.structured)
	}
	mc := c.call(call)
	mc.Idempotent, mc.ReadOnly = info.idempotent, info.readOnly
	return result(c.Failed(ctx, mc, cause), info.structured)
}

// rejectedArguments reports whether err is the SDK's rejection of a call's
// arguments, before any handler ran: its schema validation
// ("validating \"arguments\": …" in v1.8.0) or its unmarshalling into the
// handler's input type.
func rejectedArguments(err error) bool {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	msg := err.Error()
	return errors.As(err, &te) || errors.As(err, &se) ||
		strings.HasPrefix(msg, `validating "arguments"`) || strings.HasPrefix(msg, "unmarshaling arguments")
}

// call returns what the core knows of call: the tool's name, sanitized
// (the client chose it), and the default idempotency.
func (c *config) call(call *mcp.CallToolRequest) mcpcore.Call {
	if call.Params == nil {
		return mcpcore.Call{Idempotent: c.Idempotent}
	}
	return mcpcore.Call{Tool: c.Sanitizer.CleanText(call.Params.Name), Idempotent: c.Idempotent}
}
