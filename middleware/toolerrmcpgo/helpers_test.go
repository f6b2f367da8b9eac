package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

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

// records returns the JSON log records written, in order.
func (b *logBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		out = append(out, rec)
	}
	return out
}

// failures returns the records of failed calls the adapter wrote.
func (b *logBuffer) failures(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, rec := range b.records(t) {
		if rec["msg"] == "toolerr: MCP tool call failed" {
			out = append(out, rec)
		}
	}
	return out
}

// newLogger returns a JSON logger writing to a new buffer.
func newLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

// rpcIDs numbers the in-process JSON-RPC requests of the tests.
var rpcIDs atomic.Int64

// callMessage is a raw JSON-RPC tools/call request of tool with args.
func callMessage(tool string, args any) json.RawMessage {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcIDs.Add(1), "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		panic(err)
	}
	return b
}

// answer is a JSON-RPC answer as a client decodes it.
type answer struct {
	Result map[string]any `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// handle sends msg to s in process, as a transport does, and returns the
// answer as it goes on the wire.
func handle(t *testing.T, ctx context.Context, s *server.MCPServer, msg json.RawMessage) answer {
	t.Helper()
	wire, err := json.Marshal(s.HandleMessage(ctx, msg))
	require.NoError(t, err)
	var a answer
	require.NoError(t, json.Unmarshal(wire, &a), string(wire))
	return a
}

// callTool calls tool in process and fails the test on a protocol error.
func callTool(t *testing.T, s *server.MCPServer, tool string, args any) map[string]any {
	t.Helper()
	a := handle(t, context.Background(), s, callMessage(tool, args))
	require.Nil(t, a.Error, "protocol error %+v", a.Error)
	require.NotNil(t, a.Result)
	return a.Result
}

// problemOf returns the problem object of a failed result, from _meta;
// where the result has structured content too, it must be the same.
func problemOf(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	require.Equal(t, true, res["isError"], "a failed result: %v", res)
	meta, _ := res["_meta"].(map[string]any)
	p, ok := meta[toolerrmcpgo.MetaProblem].(map[string]any)
	require.True(t, ok, "_meta holds the problem: %v", res)
	if sc, has := res["structuredContent"]; has {
		require.Equal(t, p, sc, "structuredContent and _meta hold one problem object")
	}
	return p
}

// textOf returns the only text content of a result.
func textOf(t *testing.T, res map[string]any) string {
	t.Helper()
	content, _ := res["content"].([]any)
	require.Len(t, content, 1, "one content item: %v", res)
	c, _ := content[0].(map[string]any)
	require.Equal(t, "text", c["type"])
	s, _ := c["text"].(string)
	return s
}
