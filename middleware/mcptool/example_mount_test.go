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

type labelArgs struct {
	To string `json:"to"`
}

type label struct {
	ID string `json:"id"`
}

// refund and createLabel are tools of the Harbor example.
func refund(ctx context.Context, _ *mcp.CallToolRequest, in labelArgs) (*mcp.CallToolResult, label, error) {
	return nil, label{}, toolerr.Default().New(toolerr.CodeConflict, "Already refunded.")
}

func createLabel(ctx context.Context, _ *mcp.CallToolRequest, in labelArgs) (*mcp.CallToolResult, label, error) {
	return nil, label{ID: "lbl-1"}, nil
}

// packageDocServer mounts a tool as the package documentation shows.
func packageDocServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "harbor"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware())
	mcptool.AddTool(server, &mcp.Tool{Name: "refund"}, refund)
	return server
}

// mcpPageServer mounts a tool as docs/mcp.md shows.
func mcpPageServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "harbor"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware()) // the problem object in _meta for typed outputs; recovers panics
	mcptool.AddTool(server, &mcp.Tool{Name: "create_shipment_label"}, createLabel)
	return server
}

// TestDocumentedServersServe: the servers the documentation mounts list
// and run their tools for a real client.
func TestDocumentedServersServe(t *testing.T) {
	for tool, server := range map[string]*mcp.Server{"refund": packageDocServer(), "create_shipment_label": mcpPageServer()} {
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent"}, nil).Connect(ctx, ct, nil)
		require.NoError(t, err)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"to": "Oslo"}})
		require.NoError(t, err)
		assert.Equal(t, tool == "refund", res.IsError, "refund fails, the label is made")
		_ = cs.Close()
		_ = ss.Close()
	}
}
