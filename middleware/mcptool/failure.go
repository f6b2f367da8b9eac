package mcptool

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// failure is a tool call's error, ready to send (see mcpcore.Failure). As
// a Go error its text is the observation, which is what the SDK puts into
// Content when a typed handler returns it; it unwraps to the toolerr
// error, so toolerr.From finds it in the SDK's server-side middleware
// (CallToolResult.GetError).
type failure = mcpcore.Failure

// MetaProblem is the _meta key of every failed call's result that holds
// the problem object. Clients validate structuredContent against a tool's
// outputSchema (the TypeScript SDK throws when it does not match), never
// _meta, so the problem object always travels here; it is also the
// structuredContent of tools that declare no outputSchema.
const MetaProblem = mcpcore.MetaProblem

// result returns the tool result of f: IsError, the observation as the
// only Content, the problem object in _meta ([MetaProblem]) and, when
// structured (the tool declares no outputSchema), as StructuredContent
// too. GetError returns f.
func result(f *failure, structured bool) *mcp.CallToolResult {
	r := &mcp.CallToolResult{
		Meta:    mcp.Meta{MetaProblem: f.Problem},
		Content: []mcp.Content{&mcp.TextContent{Text: f.Line}},
	}
	if structured {
		r.StructuredContent = f.Problem
	}
	r.SetError(f) // keeps Content, sets IsError
	return r
}
