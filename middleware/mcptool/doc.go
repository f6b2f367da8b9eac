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
//		StructuredContent: <the problem object of the error, as JSON>,
//		Content:           [TextContent{"CODE: detail Hint: hint"}],
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
// Every error gets the tool's name and a request id: the one of the context
// (toolerr.RequestID) when a toolerr middleware set one, else a new one.
//
// # Typed output
//
// The SDK fills StructuredContent from a handler's typed output and, when a
// handler returns an error, keeps only the error's text. A handler whose
// output type is an interface (such as any) gets the whole error result from
// [Wrap] alone. For any other output type, Wrap returns the failure as an
// error whose text is the one-line summary, and [Middleware], installed on
// the server, puts the problem object back into StructuredContent. Install
// it on every server: it also turns a panic of a tool that was not wrapped
// into INTERNAL_ERROR instead of a crash of the server.
//
// Arguments that fail the tool's input schema are rejected by the SDK before
// the handler runs; the SDK reports them itself (in v1.8.0 as an IsError
// result with its validation message), and this package leaves them alone.
package mcptool
