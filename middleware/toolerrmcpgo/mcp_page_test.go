package toolerrmcpgo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// createShipmentLabel is the tool of docs/mcp.md: it fails as a handler does
// when a downstream refuses.
func createShipmentLabel(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if _, err := req.RequireString("to"); err != nil {
		return nil, err
	}
	return nil, toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "The carrier is down.")
}

// mcpPageMux mounts the server as docs/mcp.md shows.
func mcpPageMux() *http.ServeMux {
	mux := http.NewServeMux()
	s := server.NewMCPServer("harbor", "1.0.0", server.WithRecovery())
	toolerrmcpgo.Install(s, toolerrmcpgo.WithUnknownToolResult(true))
	s.AddTool(mcp.NewTool("create_shipment_label", mcp.WithString("to", mcp.Required())), createShipmentLabel)
	mux.Handle("/mcp", middleware.New()(server.NewStreamableHTTPServer(s)))
	return mux
}

// TestMCPPageServer: the mcp-go server of docs/mcp.md answers a failed
// call and a near miss of the tool's name with tool results a model can
// act on, as the page says.
func TestMCPPageServer(t *testing.T) {
	docpage.Says(t, "../../docs/mcp.md",
		"| handler error, `*toolerr.Error`, vendor error | `isError` result | `isError` result",
		"A tool's returned error or panic reaches the client as `CallToolResult{IsError: true, _meta: {\"io.toolerr/problem\": <the problem object>}, Content: [<the observation>]}`",
		"With `WithUnknownToolResult(true)` the call gets a `TOOL_NOT_FOUND` result on the field `name`",
		"and the one plainly meant (`search_orders` for `search_order`) as `suggested_value` when exactly one is.")
	srv := httptest.NewServer(mcpPageMux())
	defer srv.Close()
	ctx := context.Background()
	agent, err := client.NewStreamableHttpClient(srv.URL + "/mcp")
	require.NoError(t, err)
	defer agent.Close()
	require.NoError(t, agent.Start(ctx))
	_, err = agent.Initialize(ctx, mcp.InitializeRequest{})
	require.NoError(t, err)
	for name, code := range map[string]string{
		"create_shipment_label":  toolerr.CodeUpstreamUnavailable,
		"create_shipment_labels": toolerr.CodeToolNotFound,
	} {
		call := mcp.CallToolRequest{}
		call.Params.Name, call.Params.Arguments = name, map[string]any{"to": "Oslo"}
		res, err := agent.CallTool(ctx, call)
		require.NoError(t, err, name)
		require.True(t, res.IsError, name)
		p := res.Meta.AdditionalFields[toolerrmcpgo.MetaProblem].(map[string]any)
		assert.Equal(t, code, p["code"], name)
		if code == toolerr.CodeToolNotFound {
			assert.Equal(t, "create_shipment_label", p["suggested_value"])
		}
	}
}
