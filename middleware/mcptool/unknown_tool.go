package mcptool

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxListedTools bounds the tool names read to answer an unknown tool.
const maxListedTools = 4096

// unknownTool reports whether err is the SDK's answer to a call of a tool
// the server does not have: the protocol error "unknown tool <name>"
// (invalid params).
func unknownTool(err error, call *mcp.CallToolRequest) bool {
	var rpc *jsonrpc.Error
	if call.Params == nil || !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
		return false
	}
	return rpc.Message == fmt.Sprintf("unknown tool %q", call.Params.Name)
}

// unknownToolResult is the TOOL_NOT_FOUND result of a call of a tool the
// server does not have ([WithUnknownToolResult]), naming the nearest of
// the tools the server lists through next.
func (c *config) unknownToolResult(ctx context.Context, call *mcp.CallToolRequest, next mcp.MethodHandler) *mcp.CallToolResult {
	var names []string
	listTools(ctx, call, next, func(t *mcp.Tool) bool {
		names = append(names, t.Name)
		return len(names) < maxListedTools
	})
	return result(c.UnknownTool(ctx, call.Params.Name, names), true)
}
