package toolerrmcpgo

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
)

// TestHintsOf: a hint mcp.NewTool filled in with MCP's default counts as
// not given; one that differs from it, and every hint of annotations
// mcp.NewTool did not fill, is the author's. Which tools are guarded
// against a keyless repeat follows.
func TestHintsOf(t *testing.T) {
	yes, no := mcp.ToBoolPtr(true), mcp.ToBoolPtr(false)
	cases := []struct {
		name      string
		ann       mcp.ToolAnnotation
		readOnly  *bool
		destr     *bool
		idem      *bool
		mutating  bool
		guardNote string
	}{
		{"NewTool's defaults", mcp.NewTool("t").Annotations, nil, nil, nil, false, "a read tool that does not say so"},
		{"NewTool, read-only", mcp.NewTool("t", mcp.WithReadOnlyHintAnnotation(true)).Annotations, yes, nil, nil, false, ""},
		{"NewTool, additive", mcp.NewTool("t", mcp.WithDestructiveHintAnnotation(false)).Annotations, nil, no, nil, true, ""},
		{"NewTool, additive and idempotent", mcp.NewTool("t", mcp.WithDestructiveHintAnnotation(false),
			mcp.WithIdempotentHintAnnotation(true)).Annotations, nil, no, yes, false, ""},
		{"NewTool, destructive as the default says", mcp.NewTool("t", mcp.WithDestructiveHintAnnotation(true)).Annotations,
			nil, nil, nil, false, "the limit: the same as the default"},
		{"NewTool, closed world only", mcp.NewTool("t", mcp.WithOpenWorldHintAnnotation(false)).Annotations, nil, nil, nil, false, ""},
		{"WithToolAnnotation, destructive", mcp.NewTool("t", mcp.WithToolAnnotation(mcp.ToolAnnotation{DestructiveHint: yes})).Annotations,
			nil, yes, nil, true, ""},
		{"literal, readOnlyHint false", mcp.ToolAnnotation{ReadOnlyHint: no}, no, nil, nil, true, ""},
		{"literal, none", mcp.ToolAnnotation{Title: "Search"}, nil, nil, nil, false, ""},
		{"literal, all four at their defaults", mcp.ToolAnnotation{ReadOnlyHint: no, DestructiveHint: yes, IdempotentHint: no,
			OpenWorldHint: yes}, nil, nil, nil, false, "the limit: mcp.NewTool's fill"},
		{"literal, all four, additive", mcp.ToolAnnotation{ReadOnlyHint: no, DestructiveHint: no, IdempotentHint: no,
			OpenWorldHint: no}, nil, no, nil, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := hintsOf(c.ann)
			assert.Equal(t, c.readOnly, h.ReadOnly, "readOnlyHint")
			assert.Equal(t, c.destr, h.Destructive, "destructiveHint")
			assert.Equal(t, c.idem, h.Idempotent, "idempotentHint")
			assert.Equal(t, c.mutating, h.Mutating(), "guarded: %s", c.guardNote)
			if c.ann.DestructiveHint != nil && h.Destructive != nil {
				assert.NotSame(t, c.ann.DestructiveHint, h.Destructive, "the hints do not alias the tool's")
			}
		})
	}
}
