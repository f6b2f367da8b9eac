package toolerrmcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// hintsOf returns what the annotations of a tool say of its effects, for
// at-most-once execution and the duplicate guard (mcpcore.Hints: nil is a
// hint the tool's author did not give).
//
// mcp.NewTool sets all four hints to MCP's defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true) before
// the tool's options run, and mcp.WithReadOnlyHintAnnotation(false) sets
// the same value the same way: a hint equal to its default cannot be told
// from one the author never gave. So:
//
//   - when one of the four hints is nil, the annotations are not
//     mcp.NewTool's defaults (an mcp.Tool literal,
//     mcp.NewToolWithRawSchema, or mcp.WithToolAnnotation, which replaces
//     them all): every hint set is the author's;
//   - when all four are set, a hint that differs from MCP's default is the
//     author's (readOnlyHint true, destructiveHint false, idempotentHint
//     true), and one equal to its default counts as not given.
//
// So a tool made with mcp.NewTool and no hint of its effects is not
// guarded against a keyless repeat (a read tool that does not say so is
// never refused for asking twice), and one that says
// mcp.WithDestructiveHintAnnotation(false) (it only adds) is. The limit: a
// tool made with mcp.NewTool that says destructiveHint true, or
// readOnlyHint false, says what the defaults say, and is not guarded
// either; its author declares it with mcp.WithToolAnnotation(
// mcp.ToolAnnotation{DestructiveHint: mcp.ToBoolPtr(true)}) to be, and so
// would an mcp.Tool literal that sets all four hints to their defaults.
// Keys work whatever the hints, except for a read-only tool, which ignores
// them.
func hintsOf(a mcp.ToolAnnotation) mcpcore.Hints {
	h := mcpcore.Hints{ReadOnly: copyHint(a.ReadOnlyHint), Destructive: copyHint(a.DestructiveHint),
		Idempotent: copyHint(a.IdempotentHint)}
	if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
		return h
	}
	if !*h.ReadOnly {
		h.ReadOnly = nil
	}
	if *h.Destructive {
		h.Destructive = nil
	}
	if !*h.Idempotent {
		h.Idempotent = nil
	}
	return h
}

// copyHint returns a copy of b, so that the hints read do not alias a
// tool definition the application may change.
func copyHint(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}
