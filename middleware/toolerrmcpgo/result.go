package toolerrmcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// MetaProblem is the _meta key of every failed call's result that holds
// the problem object. Clients validate structuredContent against a tool's
// outputSchema (the TypeScript SDK throws when it does not match), never
// _meta, so the problem object always travels here; it is also the
// structuredContent of tools that declare no outputSchema.
const MetaProblem = mcpcore.MetaProblem

// result returns the tool result of f: IsError, the observation as the
// only content, the problem object in _meta ([MetaProblem]) and, when
// structured (the tool lists no outputSchema), as structuredContent too.
func result(f *mcpcore.Failure, structured bool) *mcp.CallToolResult {
	r := &mcp.CallToolResult{
		Result:  mcp.Result{Meta: &mcp.Meta{AdditionalFields: map[string]any{MetaProblem: f.Problem}}},
		Content: []mcp.Content{mcp.NewTextContent(f.Line)},
		IsError: true,
	}
	if structured {
		r.StructuredContent = f.Problem
	}
	return r
}
