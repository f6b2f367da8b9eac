package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// mcp-go's streamable HTTP server behind toolerr's middleware: its JSON-RPC
// errors stay JSON-RPC errors, and a panic outside a tool handler is
// answered with one.

// Planted in what the server answers; none of it may reach the client.
const (
	planted = "password=hunter2hunter2 at postgres://user:pw@db.prod.internal:5432/orders"
	stack   = "goroutine 42 [running]:\nmain.(*Ledger).Post(0x0)\n\t/srv/ledger/internal/post.go:88 +0x1c"
)

var leaks = []string{"hunter2hunter2", "user:pw", "db.prod.internal", "goroutine 42", "post.go:88", "/srv/ledger"}

// reply is a JSON-RPC error response as a client decodes it.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// stackURL serves mcp-go's streamable HTTP server behind New, with mws
// between them, outermost first.
func stackURL(t *testing.T, opts []server.StreamableHTTPOption, mws ...func(http.Handler) http.Handler) string {
	t.Helper()
	s := server.NewMCPServer("ledger", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(req.GetString("text", "")), nil
	})
	var h http.Handler = server.NewStreamableHTTPServer(s, opts...)
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)))(h))
	t.Cleanup(srv.Close)
	return srv.URL
}

// post sends body as an MCP streamable HTTP client does.
func post(t *testing.T, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, out
}

// errorReply decodes a JSON-RPC error answer, failing the test unless it
// is one (never problem+json) with none of the planted text.
func errorReply(t *testing.T, resp *http.Response, body []byte) reply {
	t.Helper()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "%s", body)
	var r reply
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	require.NoError(t, d.Decode(&r), "%s", body)
	require.Equal(t, "2.0", r.JSONRPC)
	for _, leak := range leaks {
		assert.NotContains(t, string(body), leak)
	}
	return r
}

func TestMCPGoMalformedBodyPassesAsAParseError(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		url := stackURL(t, []server.StreamableHTTPOption{server.WithStateLess(stateless)})
		for _, body := range []string{`{"jsonrpc":"2.0","id":1,"method":`, `not json at all ` + planted} {
			resp, out := post(t, url, body)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode)
			r := errorReply(t, resp, out)
			assert.Equal(t, "null", string(r.ID))
			assert.Equal(t, mcp.PARSE_ERROR, r.Error.Code)
			assert.Equal(t, "request body is not valid json", r.Error.Message, "mcp-go's own message, clean")
			assert.Empty(t, r.Error.Data)
		}
	}
}

// TestMCPGoKeepsItsJSONRPCErrors: mcp-go's 400 JSON-RPC errors keep the
// id and the code; the text it quotes from the request is sanitized.
func TestMCPGoKeepsItsJSONRPCErrors(t *testing.T) {
	url := stackURL(t, nil)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28 ` + planted + `"}`
	for _, id := range []string{`17`, `"call-é\"1"`} {
		resp, out := post(t, url, `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/list","params":{`+meta+`}}`,
			"Mcp-Protocol-Version", "2026-07-28")
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		r := errorReply(t, resp, out)
		assert.JSONEq(t, id, string(r.ID))
		assert.Equal(t, mcp.HEADER_MISMATCH, r.Error.Code)
		assert.Contains(t, r.Error.Message, "does not match request")
		assert.Contains(t, r.Error.Message, "[REDACTED:")
	}
}

// TestMCPGoPanicOutsideAToolHandler: a panic in mcp-go's own request path
// (the HTTP context function, which it calls unrecovered) or in a
// middleware between New and mcp-go is a JSON-RPC error with the
// request's id, -32603, with the toolerr problem as its data.
func TestMCPGoPanicOutsideAToolHandler(t *testing.T) {
	contextFunc := server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		if r.Header.Get("X-Boom") == "context" {
			panic("tenant lookup failed: " + planted + "\n" + stack)
		}
		return ctx
	})
	outer := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Boom") == "middleware" {
				panic("rate limiter: " + planted)
			}
			next.ServeHTTP(w, r)
		})
	}
	url := stackURL(t, []server.StreamableHTTPOption{contextFunc, server.WithStateLess(true)}, outer)
	for _, where := range []string{"context", "middleware"} {
		resp, out := post(t, url, `{"jsonrpc":"2.0","id":"req-\u00e9-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
			"X-Boom", where)
		require.Equal(t, http.StatusInternalServerError, resp.StatusCode, "%s: %s", where, out)
		r := errorReply(t, resp, out)
		assert.Equal(t, `"req-\u00e9-1"`, string(r.ID), "the request's id, verbatim")
		assert.Equal(t, mcp.INTERNAL_ERROR, r.Error.Code)
		require.NoError(t, toolerr.Validate(r.Error.Data), "%s", r.Error.Data)
		e, err := toolerr.Parse(r.Error.Data)
		require.NoError(t, err)
		assert.Equal(t, toolerr.CodeInternal, e.Code)
		assert.Equal(t, resp.Header.Get("X-Request-Id"), e.RequestID)
		assert.Equal(t, e.Detail, r.Error.Message)
	}

	// Without a panic the call goes through.
	resp, out := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", out)
	assert.Contains(t, string(out), `"text":"hi"`)
}

// TestMCPGoPlainTextRefusalBecomesJSONRPC: mcp-go refuses a POST that is
// not JSON with a plain-text 400; an MCP client (its Accept says so) gets
// a JSON-RPC error instead, -32600, the problem as data.
func TestMCPGoPlainTextRefusalBecomesJSONRPC(t *testing.T) {
	url := stackURL(t, nil)
	req, err := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	r := errorReply(t, resp, out)
	assert.Equal(t, "5", string(r.ID))
	assert.Equal(t, mcp.INVALID_REQUEST, r.Error.Code)
	require.NoError(t, toolerr.Validate(r.Error.Data), "%s", r.Error.Data)
}

// TestMCPGoClientThroughTheStack: mcp-go's own client works through the
// middleware as without it, stateful and stateless.
func TestMCPGoClientThroughTheStack(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		url := stackURL(t, []server.StreamableHTTPOption{server.WithStateLess(stateless)})
		c, err := client.NewStreamableHttpClient(url)
		require.NoError(t, err)
		t.Cleanup(func() { _ = c.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, c.Start(ctx))
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		init.Params.ClientInfo = mcp.Implementation{Name: "agent", Version: "1.0.0"}
		_, err = c.Initialize(ctx, init)
		require.NoError(t, err)
		call := mcp.CallToolRequest{}
		call.Params.Name, call.Params.Arguments = "echo", map[string]any{"text": "hello"}
		res, err := c.CallTool(ctx, call)
		require.NoError(t, err)
		require.Len(t, res.Content, 1)
		assert.Equal(t, "hello", res.Content[0].(mcp.TextContent).Text)
	}
}
