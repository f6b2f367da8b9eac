package mcptool_test

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// connect serves server over in-memory transports and returns a connected
// client session; both are closed when the test ends.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
	})
	return cs
}

// newServer returns an MCP server with no tools.
func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "harbor", Version: "v0.0.1"}, nil)
}

// call calls tool with args and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	return res
}

// text returns the texts of res's Content.
func text(t *testing.T, res *mcp.CallToolResult) []string {
	t.Helper()
	var out []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		require.True(t, ok, "content %T", c)
		out = append(out, tc.Text)
	}
	return out
}

// problem returns the problem object of a failed call's result, from its
// _meta (mcptool.MetaProblem), as the client decoded it; where the result
// has structured content too, it must be the same object.
func problem(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m, ok := res.Meta[mcptool.MetaProblem].(map[string]any)
	require.True(t, ok, "_meta problem %T", res.Meta[mcptool.MetaProblem])
	if res.StructuredContent != nil {
		require.Equal(t, m, res.StructuredContent, "structuredContent and _meta hold one problem object")
	}
	return m
}

// logBuffer is a concurrency-safe buffer for a test logger.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newLogger returns a JSON logger writing to a new buffer.
func newLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewJSONHandler(b, nil)), b
}
