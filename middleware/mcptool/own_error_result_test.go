package mcptool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// ownDecline is the text of a failed result a handler builds itself.
const ownDecline = "The card 4242 4242 4242 4242 was declined.\nRetry with another card."

// TestOwnErrorResultLosesPaymentData: a failed result a handler built
// itself keeps its words and its line breaks, through Wrap and through
// the middleware alike, but not the card number; a success is the tool's
// own and passes untouched.
func TestOwnErrorResultLosesPaymentData(t *testing.T) {
	own := func() *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
			&mcp.TextContent{Text: ownDecline}, &mcp.TextContent{Text: "no card here"}}}
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware())
	mcptool.AddTool(server, &mcp.Tool{Name: "wrapped"}, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return own(), nil, nil
	})
	server.AddTool(&mcp.Tool{Name: "plain", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return own(), nil })
	server.AddTool(&mcp.Tool{Name: "echo_card", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "stored card 4242 4242 4242 4242"}}}, nil
		})
	cs := connect(t, server)
	for _, name := range []string{"wrapped", "plain"} {
		res := call(t, cs, name, map[string]any{})
		assert.True(t, res.IsError, name)
		assert.Equal(t, []string{"The card [card ending 4242] was declined.\nRetry with another card.", "no card here"},
			text(t, res), name)
		assert.Nil(t, res.Meta[mcptool.MetaProblem], "%s: still the handler's own result", name)
	}
	assert.Equal(t, []string{"stored card 4242 4242 4242 4242"}, text(t, call(t, cs, "echo_card", map[string]any{})),
		"a success is the tool's result")
}
