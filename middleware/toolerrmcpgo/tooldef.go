package toolerrmcpgo

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// toolDef is what the adapter needs of a called tool's definition to
// complete a failure. It is read on the failure path only.
type toolDef struct {
	tool  mcp.Tool
	found bool // false when the tool is unknown (no definition)
	// structured is true when the tool lists no outputSchema: the problem
	// object may then be the result's structuredContent too. Clients
	// validate structuredContent against a listed outputSchema (the
	// TypeScript SDK throws), so an unknown definition counts as having
	// one.
	structured bool
	// idempotent is the tool's idempotency for the classifier.
	idempotent bool
}

// findTool returns the definition of the tool name as the call of ctx
// sees it: the session's own tool of that name (mcp-go's
// SessionWithTools), else the server's.
func (a *adapter) findTool(ctx context.Context, name string) (mcp.Tool, bool) {
	if session := server.ClientSessionFromContext(ctx); session != nil {
		if st, ok := session.(server.SessionWithTools); ok {
			if t, ok := st.GetSessionTools()[name]; ok {
				return t.Tool, true
			}
		}
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		srv = a.server
	}
	if t := srv.GetTool(name); t != nil {
		return t.Tool, true
	}
	return mcp.Tool{}, false
}

// def returns what the adapter needs of the tool name's definition. The
// outputSchema is listed as mcp.Tool's MarshalJSON lists it: when
// RawOutputSchema is set or OutputSchema has a type.
func (a *adapter) def(ctx context.Context, name string) toolDef {
	t, ok := a.findTool(ctx, name)
	if !ok {
		return toolDef{idempotent: a.core.Idempotent}
	}
	return toolDef{tool: t, found: true, idempotent: a.idempotent(t.Annotations),
		structured: t.RawOutputSchema == nil && t.OutputSchema.Type == ""}
}

// input returns the tool's input schema as tools/list shows it (mcp.Tool's
// MarshalJSON: RawInputSchema when set, else InputSchema), or nil for an
// unknown tool or one whose schema does not marshal. Only the argument
// checks need it.
func (d toolDef) input() []byte {
	if !d.found {
		return nil
	}
	if d.tool.RawInputSchema != nil {
		return d.tool.RawInputSchema
	}
	b, err := json.Marshal(d.tool.InputSchema)
	if err != nil {
		return nil
	}
	return b
}

// idempotent reads a tool's annotations: a read-only tool is idempotent,
// else its idempotentHint says, else the configured default. (MCP gives
// idempotentHint meaning only for tools that are not read-only.)
func (a *adapter) idempotent(ann mcp.ToolAnnotation) bool {
	switch {
	case ann.ReadOnlyHint != nil && *ann.ReadOnlyHint:
		return true
	case ann.IdempotentHint != nil:
		return *ann.IdempotentHint
	}
	return a.core.Idempotent
}

// call returns what the core knows of a call of the tool name, whose
// definition is d: the name sanitized (the client chose it), the tool's
// idempotency and whether it is read-only (readOnlyHint).
func (a *adapter) call(name string, d toolDef) mcpcore.Call {
	readOnly := d.tool.Annotations.ReadOnlyHint != nil && *d.tool.Annotations.ReadOnlyHint
	return mcpcore.Call{Tool: a.core.Sanitizer.CleanText(name), Idempotent: d.idempotent, ReadOnly: readOnly}
}
