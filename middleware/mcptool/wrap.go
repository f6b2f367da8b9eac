package mcptool

import (
	"context"
	"errors"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// Wrap returns a handler that calls h and turns its failures into toolerr
// results for the tool called name: a returned error or a panic becomes a
// CallToolResult with IsError set, the problem object of the error as
// StructuredContent and its observation (toolerr.Error.AppendObservation:
// code, category, retryability, field, values, hint, request id, one per
// line) as Content. A call that succeeds is passed on untouched, and so
// is a result h marked IsError itself, but for the secrets and payment
// data of its text, which are redacted; so is a *jsonrpc.Error
// found in the returned error's chain, which the SDK sends as a protocol
// error with its message as it is. h runs under a request scope of the
// call's own, with the call's ids (see the package doc).
//
// When Out is an interface type (such as any) the wrapper returns the whole
// result. For any other Out the SDK would replace StructuredContent with the
// zero output, so the wrapper returns the failure as an error instead, whose
// text is the line above: the client gets IsError and the line, and
// [Middleware] on the server adds the problem object back.
//
// Options default as documented on each: the built-in registry,
// sanitize.New(), slog.Default(), a non-idempotent tool.
func Wrap[In, Out any](name string, h mcp.ToolHandlerFor[In, Out], opts ...Option) mcp.ToolHandlerFor[In, Out] {
	c := newConfig(opts)
	if c.Guards() {
		c.Logger.Warn("toolerr: mcptool.Wrap ignores WithIdempotency and WithThrashGuard: register the tool with mcptool.AddTool", "tool", name)
	}
	c.DeclareFallbacksOf(name)
	return wrap(c, mcpcore.Call{Tool: name, Idempotent: c.Idempotent}, h, true)
}

// wrap is [Wrap] of the tool call names; structured is false when the
// tool declares an outputSchema, which a problem object in
// structuredContent would break.
func wrap[In, Out any](c *config, call mcpcore.Call, h mcp.ToolHandlerFor[In, Out], structured bool) mcp.ToolHandlerFor[In, Out] {
	whole := reflect.TypeFor[Out]().Kind() == reflect.Interface
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		ctx = c.callContext(ctx, req) // call.go
		if c.ClaimCount(ctx) {
			c.CountCall(call.Tool) // else the server's Middleware counts it
		}
		s := slot(ctx) // idempotency.go
		defer func() {
			if v := recover(); v != nil {
				if s != nil {
					s.panicked.Store(true)
				}
				res, out, err = outcome[Out](c.Panicked(ctx, call, v), whole, structured)
			}
		}()
		if s != nil {
			s.ran.Store(true)
		}
		res, out, err = h(ctx, req, in)
		if err == nil {
			return redactOwn(c.Sanitizer, res), out, nil // own_error_result.go
		}
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) {
			return nil, out, rpc
		}
		return outcome[Out](c.Failed(ctx, call, err), whole, structured)
	}
}

// AddTool registers h as the tool t on s, wrapped by [Wrap] under t.Name: a
// shorthand for mcp.AddTool(s, t, Wrap(t.Name, h, opts...)). Like
// mcp.AddTool it panics when the tool's schemas are unusable. A tool whose
// annotations say it is idempotent or read-only (idempotentHint,
// readOnlyHint) is idempotent for the classifier, whatever
// [WithIdempotent] says: its timeouts are retryable. With
// [WithIdempotency] it also adds to s the receiving middleware that runs
// the tool's calls at most once per key and guards its keyless repeats.
func AddTool[In, Out any](s *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out], opts ...Option) {
	c := newConfig(opts)
	c.DeclareFallbacksOf(t.Name)
	call := mcpcore.Call{Tool: t.Name, Idempotent: idempotentTool(t.Annotations, c.Idempotent), ReadOnly: readOnlyTool(t.Annotations)}
	mcp.AddTool(s, t, wrap(c, call, h, t.OutputSchema == nil))
	if c.Guards() {
		// The SDK gives a tool whose Out is not any an outputSchema.
		structured := t.OutputSchema == nil && reflect.TypeFor[Out]() == reflect.TypeFor[any]()
		s.AddReceivingMiddleware(c.once(t, structured)) // idempotency.go
	}
}

// outcome is what a wrapped handler returns for f: the whole result when the
// SDK keeps it (whole), else f as the error.
func outcome[Out any](f *failure, whole, structured bool) (*mcp.CallToolResult, Out, error) {
	var zero Out
	if whole {
		return result(f, structured), zero, nil
	}
	return nil, zero, f
}
