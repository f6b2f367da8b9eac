package mcptool

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxToolPages bounds the tools/list pages read to find one tool.
const maxToolPages = 64

// toolInfo is what [Middleware] needs of a tool to complete a failure
// the SDK or an unwrapped handler produced.
type toolInfo struct {
	input      []byte // the input schema as listed; nil when the tool is unknown
	structured bool   // the tool declares no outputSchema
	// idempotent is the tool's idempotentHint (or readOnlyHint: a tool
	// that changes nothing can be called again); nil when the tool has
	// no annotations.
	idempotent *bool
}

// lookup returns what the server lists for the tool name, asking the
// server through next (tools/list, page by page). It is called on the
// failure path only. A tool the server does not list is unknown: no
// schema, and no structured content.
func (c *config) lookup(ctx context.Context, call *mcp.CallToolRequest, name string, next mcp.MethodHandler) toolInfo {
	t := findTool(ctx, call, name, next)
	if t == nil {
		return toolInfo{}
	}
	input, _ := json.Marshal(t.InputSchema)
	info := toolInfo{input: input, structured: t.OutputSchema == nil}
	if a := t.Annotations; a != nil {
		idempotent := a.IdempotentHint || a.ReadOnlyHint
		info.idempotent = &idempotent
	}
	return info
}

// findTool lists the server's tools through next until it finds name.
func findTool(ctx context.Context, call *mcp.CallToolRequest, name string, next mcp.MethodHandler) *mcp.Tool {
	params := &mcp.ListToolsParams{}
	for range maxToolPages {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params, Extra: call.Extra})
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return nil
		}
		for _, t := range list.Tools {
			if t != nil && t.Name == name {
				return t
			}
		}
		if list.NextCursor == "" {
			return nil
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
	return nil
}
