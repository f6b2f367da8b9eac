package middleware

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// connectMCP connects the SDK's client to url over streamable HTTP.
func connectMCP(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestMCPGoSDKClientThroughTheStack: the SDK's own client works through
// the middleware as without it: initialize, list, call, and the answers
// stream (SSE) as the SDK writes them.
func TestMCPGoSDKClientThroughTheStack(t *testing.T) {
	mcpModes(t, func(t *testing.T, stateless bool) {
		cs := connectMCP(t, mcpStack(t, newMCPServer(nil), stateless))
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		tools, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 2)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello " + rpcDSN}})
		require.NoError(t, err)
		require.False(t, res.IsError)
		require.Len(t, res.Content, 1)
		assert.Equal(t, "hello "+rpcDSN, res.Content[0].(*mcp.TextContent).Text, "a result passes untouched")

		// The SDK's answer to a call of a tool it does not know is a
		// JSON-RPC error in a 200 stream: untouched, the client reads it.
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nosuch"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "nosuch")
	})
}

// TestMCPGoSDKSessionGoneStaysASessionSignal: MCP's "session gone" (404 to
// a request with an Mcp-Session-Id) keeps its meaning: the SDK's client
// reports ErrSessionMissing through the middleware as it does without
// it, which it would not if the 404 carried a JSON-RPC error. The body is
// toolerr's text rendering, sanitized, with the request id.
func TestMCPGoSDKSessionGoneStaysASessionSignal(t *testing.T) {
	for _, mounted := range []bool{false, true} {
		var url string
		s := newMCPServer(nil)
		if mounted {
			url = mcpStack(t, s, false)
		} else {
			url = newServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		}
		cs := connectMCP(t, url)
		resp, _ := do(t, "DELETE", url, http.Header{"Mcp-Session-Id": {cs.ID()}, "Mcp-Protocol-Version": {"2025-06-18"}}, "")
		require.Less(t, resp.StatusCode, 300, "the session is closed")
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		_, err := cs.ListTools(ctx, nil)
		cancel()
		require.Error(t, err)
		assert.True(t, errors.Is(err, mcp.ErrSessionMissing), "mounted=%v: %v", mounted, err)

		if mounted {
			resp, body := do(t, "POST", url, mcpHeader("Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18"),
				`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
			require.Equal(t, http.StatusNotFound, resp.StatusCode)
			assert.Equal(t, toolerr.ContentTypePlain, resp.Header.Get("Content-Type"))
			assert.Contains(t, string(body), resp.Header.Get("X-Request-Id"))
			assert.False(t, strings.HasPrefix(string(body), "{"), "not JSON: %s", body)
		}
	}
}

// TestMCPGoSDKStreamsUnbuffered: an SSE answer goes out as the SDK
// flushes it: the client reads the tool's progress notification while
// the tool still runs, and a session's GET stream starts at once.
func TestMCPGoSDKStreamsUnbuffered(t *testing.T) {
	release := make(chan struct{})
	url := mcpStack(t, newMCPServer(release), true)
	req, err := http.NewRequest("POST", url, strings.NewReader(
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"progress","arguments":{"text":"x"},"_meta":{"progressToken":"p-1"}}}`))
	require.NoError(t, err)
	req.Header = mcpHeader("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	got := readSSEUntil(t, resp.Body, `"half way"`) // the tool is still waiting
	assert.Contains(t, got, "notifications/progress")
	close(release)
	got = readSSEUntil(t, resp.Body, `"id":8`)
	assert.Contains(t, got, `"done"`)

	// A stateful session's GET stream: headers arrive while it stays open.
	surl := mcpStack(t, newMCPServer(nil), false)
	init, _ := do(t, "POST", surl, mcpHeader(),
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	resp, _ = do(t, "POST", surl, mcpHeader("Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-06-18"),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	get, err := http.NewRequestWithContext(ctx, "GET", surl, nil)
	require.NoError(t, err)
	get.Header = http.Header{"Accept": {"text/event-stream"}, "Mcp-Session-Id": {session}, "Mcp-Protocol-Version": {"2025-06-18"}}
	stream, err := http.DefaultClient.Do(get)
	require.NoError(t, err, "the stream's headers arrive before it ends")
	defer stream.Body.Close()
	assert.Equal(t, http.StatusOK, stream.StatusCode)
	assert.Equal(t, "text/event-stream", stream.Header.Get("Content-Type"))
}
