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
	idempotent bool   // see idempotentTool
	readOnly   bool   // see readOnlyTool
}

// lookup returns what the server lists for the tool name, asking the
// server through next (tools/list, page by page). It is called on the
// failure path only. A tool the server does not list is unknown: no
// schema, no structured content, and the default idempotency.
func (c *config) lookup(ctx context.Context, call *mcp.CallToolRequest, name string, next mcp.MethodHandler) toolInfo {
	var found *mcp.Tool
	listTools(ctx, call, next, func(t *mcp.Tool) bool {
		if t.Name == name {
			found = t
		}
		return found == nil
	})
	if found == nil {
		return toolInfo{idempotent: c.Idempotent}
	}
	input, _ := json.Marshal(found.InputSchema)
	return toolInfo{input: input, structured: found.OutputSchema == nil, idempotent: idempotentTool(found.Annotations, c.Idempotent),
		readOnly: readOnlyTool(found.Annotations)}
}

// idempotentTool reports whether a tool with annotations a is idempotent
// for the classifier: when the default says so, or the tool declares
// itself idempotent or read-only (a tool that changes nothing can be
// called again).
func idempotentTool(a *mcp.ToolAnnotations, def bool) bool {
	return def || a != nil && (a.IdempotentHint || a.ReadOnlyHint)
}

// readOnlyTool reports whether a tool with annotations a changes nothing
// (readOnlyHint): a call of any other tool is mutating for the guard of
// its fallbacks.
func readOnlyTool(a *mcp.ToolAnnotations) bool {
	return a != nil && a.ReadOnlyHint
}

// listTools lists the server's tools through next, page by page (at most
// maxToolPages), calling visit with each until visit returns false.
func listTools(ctx context.Context, call *mcp.CallToolRequest, next mcp.MethodHandler, visit func(*mcp.Tool) bool) {
	params := &mcp.ListToolsParams{}
	for range maxToolPages {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params, Extra: call.Extra})
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return
		}
		for _, t := range list.Tools {
			if t != nil && !visit(t) {
				return
			}
		}
		if list.NextCursor == "" {
			return
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
}
