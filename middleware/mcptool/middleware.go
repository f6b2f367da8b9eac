package mcptool

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Middleware returns receiving middleware for an MCP server
// (mcp.Server.AddReceivingMiddleware) that completes and guards tool calls:
//
//   - a failure that [Wrap] had to return as an error (typed output) reaches
//     the client with its problem object in StructuredContent;
//   - a panic of a tool handler that was not wrapped, which would otherwise
//     crash the server, becomes an INTERNAL_ERROR result; its value and
//     stack go to the logger only.
//
// Other methods and every other result, IsError results included, pass
// untouched. The options configure the INTERNAL_ERROR of a panic and its log
// record, with the defaults of [Wrap].
func Middleware(opts ...Option) mcp.Middleware {
	c := newConfig(opts)
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok {
				return next(ctx, method, req)
			}
			ctx = c.callContext(ctx, call) // call.go
			defer func() {
				if v := recover(); v != nil {
					// The tool's outputSchema is unknown here: the
					// problem object goes in _meta only.
					res, err = c.panicked(ctx, c.toolName(call), v).result(false), nil
				}
			}()
			res, err = next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && err == nil {
				res = completed(r)
			}
			return res, err
		}
	}
}

// completed returns r with the problem object of a [Wrap] failure in its
// _meta ([MetaProblem]), or r itself when r is not such a failure or
// already carries it. The failure came back as an error because the tool
// has a typed output, and so an outputSchema: its structuredContent stays
// empty, since a problem object there would break that schema.
func completed(r *mcp.CallToolResult) mcp.Result {
	if r == nil || !r.IsError {
		return r
	}
	if _, done := r.Meta[MetaProblem]; done {
		return r
	}
	var f *failure
	if !errors.As(r.GetError(), &f) {
		return r
	}
	done := *r
	done.Meta = make(mcp.Meta, len(r.Meta)+1)
	for k, v := range r.Meta {
		done.Meta[k] = v
	}
	done.Meta[MetaProblem] = f.problem
	return &done
}

// toolName returns the sanitized name of the called tool: the client chose
// it, so it is not trusted as it is.
func (c *config) toolName(call *mcp.CallToolRequest) string {
	if call.Params == nil {
		return ""
	}
	return c.sanitizer.CleanText(call.Params.Name)
}
