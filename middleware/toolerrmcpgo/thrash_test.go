package toolerrmcpgo_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// TestThrashGuard: a tool call that failed twice with NOT_FOUND is
// refused the third time without running; other arguments run; retryable
// failures are never refused.
func TestThrashGuard(t *testing.T) {
	logger, _ := newLogger()
	var runs atomic.Int32
	s := server.NewMCPServer("orders", "1.0.0")
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger),
		toolerrmcpgo.WithThrashGuard(nil, idempotency.SharedAnonymousScope()))
	s.AddTool(mcp.NewTool("get_order", mcp.WithString("id")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		runs.Add(1)
		if req.GetString("id", "") == "busy" {
			return nil, toolerr.Default().New(toolerr.CodeRateLimited, "")
		}
		return nil, toolerr.Default().New(toolerr.CodeNotFound, "No such order.")
	})
	for range 2 {
		assert.Equal(t, toolerr.CodeNotFound, problemOf(t, callTool(t, s, "get_order", map[string]any{"id": "ord-9"}))["code"])
	}
	p := problemOf(t, callTool(t, s, "get_order", map[string]any{"id": "ord-9"}))
	require.Equal(t, toolerr.CodeRepeatedFailure, p["code"])
	assert.Equal(t, "get_order", p["tool"])
	assert.Equal(t, toolerr.CodeNotFound, p["details"].(map[string]any)["repeated_code"])
	assert.EqualValues(t, 2, runs.Load())
	assert.Equal(t, toolerr.CodeNotFound, problemOf(t, callTool(t, s, "get_order", map[string]any{"id": "ord-8"}))["code"])
	for range 3 {
		assert.Equal(t, toolerr.CodeRateLimited, problemOf(t, callTool(t, s, "get_order", map[string]any{"id": "busy"}))["code"])
	}
	assert.EqualValues(t, 6, runs.Load())
}
