package mcptool_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TestUnknownToolStaysProtocolErrorByDefault: without
// WithUnknownToolResult, a call of a tool the server does not have is the
// SDK's protocol error, untouched, as MCP prescribes; with it, a
// TOOL_NOT_FOUND result naming the tool meant.
func TestUnknownToolStaysProtocolErrorByDefault(t *testing.T) {
	type in struct {
		Query string `json:"query"`
	}
	h := func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}
	for _, on := range []bool{false, true} {
		server := newServer()
		server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithUnknownToolResult(on)))
		mcptool.AddTool(server, &mcp.Tool{Name: "search_orders"}, h)
		cs := connect(t, server)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_order", Arguments: map[string]any{}})
		if !on {
			require.Error(t, err, "the SDK's protocol error")
			assert.Contains(t, err.Error(), "unknown tool")
			continue
		}
		require.NoError(t, err)
		require.True(t, res.IsError)
		p := problem(t, res)
		assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
		assert.Equal(t, "search_orders", p["suggested_value"])
		assert.Contains(t, text(t, res)[0], "search_orders")
	}
}
