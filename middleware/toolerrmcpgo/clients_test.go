package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// agent is an MCP client under test, its results decoded from JSON as
// they arrived, whatever the client library.
type agent interface {
	// call calls tool with args; err is a protocol error.
	call(t *testing.T, tool string, args map[string]any) (map[string]any, error)
	// callKeyed calls tool with args and, when key is not "", the key in
	// the call's _meta (toolerrmcpgo.MetaIdempotencyKey).
	callKeyed(t *testing.T, tool string, args map[string]any, key string) (map[string]any, error)
	// session is the client's session id, empty when stateless.
	session() string
}

// clientKind names a client library and the protocol it speaks.
type clientKind struct {
	name    string
	legacy  bool // the initialize handshake, with sessions, not the stateless protocol
	connect func(t *testing.T, url string, w *wire) agent
}

// goClients are the Go clients of the tests, mcp-go's own and the official
// Go SDK's, each speaking the stateless protocol of 2026-07-28 (their
// default) and the handshake of 2025-11-25, with sessions.
var goClients = []clientKind{
	{"mcp-go client, 2026-07-28", false, func(t *testing.T, url string, w *wire) agent { return connectMCPGo(t, url, w, "") }},
	{"mcp-go client, 2025-11-25", true, func(t *testing.T, url string, w *wire) agent { return connectMCPGo(t, url, w, legacy) }},
	{"go-sdk client, 2026-07-28", false, func(t *testing.T, url string, w *wire) agent { return connectSDK(t, url, w, "") }},
	{"go-sdk client, 2025-11-25", true, func(t *testing.T, url string, w *wire) agent { return connectSDK(t, url, w, legacy) }},
}

// legacy is the last protocol version with the initialize handshake.
const legacy = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// mcpgoAgent is mcp-go's client.
type mcpgoAgent struct{ c *mcpclient.Client }

// connectMCPGo connects mcp-go's streamable HTTP client to url over w,
// asking for protocol (empty: the client's default).
func connectMCPGo(t *testing.T, url string, w *wire, protocol string) agent {
	t.Helper()
	c, err := mcpclient.NewStreamableHttpClient(url, transport.WithHTTPBasicClient(w.client()))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: "mcp-go-agent", Version: "1.0.0"}
	_, err = c.Initialize(ctx, req)
	require.NoError(t, err)
	return &mcpgoAgent{c: c}
}

// call calls tool.
func (a *mcpgoAgent) call(t *testing.T, tool string, args map[string]any) (map[string]any, error) {
	t.Helper()
	return a.callKeyed(t, tool, args, "")
}

// callKeyed calls tool with the key in _meta.
func (a *mcpgoAgent) callKeyed(t *testing.T, tool string, args map[string]any, key string) (map[string]any, error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	if key != "" {
		req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{toolerrmcpgo.MetaIdempotencyKey: key}}
	}
	res, err := a.c.CallTool(context.Background(), req)
	if err != nil {
		return nil, err
	}
	return asMap(t, res), nil
}

// session returns the session id.
func (a *mcpgoAgent) session() string { return a.c.GetSessionId() }

// sdkAgent is the official Go SDK's client.
type sdkAgent struct{ cs *sdk.ClientSession }

// connectSDK connects the official Go SDK's streamable client to url over
// w, asking for protocol (empty: the client's default).
func connectSDK(t *testing.T, url string, w *wire, protocol string) agent {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-agent", Version: "1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: w.client()},
		&sdk.ClientSessionOptions{ProtocolVersion: protocol})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return &sdkAgent{cs: cs}
}

// call calls tool.
func (a *sdkAgent) call(t *testing.T, tool string, args map[string]any) (map[string]any, error) {
	t.Helper()
	return a.callKeyed(t, tool, args, "")
}

// callKeyed calls tool with the key in _meta.
func (a *sdkAgent) callKeyed(t *testing.T, tool string, args map[string]any, key string) (map[string]any, error) {
	t.Helper()
	p := &sdk.CallToolParams{Name: tool, Arguments: args}
	if key != "" {
		p.Meta = sdk.Meta{toolerrmcpgo.MetaIdempotencyKey: key}
	}
	res, err := a.cs.CallTool(context.Background(), p)
	if err != nil {
		return nil, err
	}
	return asMap(t, res), nil
}

// session returns the session id.
func (a *sdkAgent) session() string { return a.cs.ID() }

// asMap returns v as JSON decodes it.
func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), string(b))
	return m
}
