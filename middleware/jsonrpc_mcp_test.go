package middleware

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// The official Go MCP SDK's streamable HTTP handler behind New, stateless
// and stateful, as an MCP server mounts it.

// mcpEcho is the input of the echo tool.
type mcpEcho struct {
	Text string `json:"text"`
}

// newMCPServer returns an MCP server with an echo tool, and a "progress"
// tool that reports progress, then waits for release before it answers.
func newMCPServer(release <-chan struct{}) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ledger", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in mcpEcho) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "progress"}, func(ctx context.Context, req *mcp.CallToolRequest, _ mcpEcho) (*mcp.CallToolResult, any, error) {
		err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 2, Message: "half way",
		})
		if err != nil {
			return nil, nil, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// mcpStack serves the SDK's streamable HTTP handler for s behind New,
// with mws between New and the SDK, outermost first.
func mcpStack(t *testing.T, s *mcp.Server, stateless bool, mws ...func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return serve(t, h)
}

// mcpHeader is what an MCP streamable HTTP client sends on a POST.
func mcpHeader(extra ...string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	return h
}

// mcpModes runs f for a stateless and a stateful handler.
func mcpModes(t *testing.T, f func(t *testing.T, stateless bool)) {
	for _, stateless := range []bool{true, false} {
		name := "stateful"
		if stateless {
			name = "stateless"
		}
		t.Run(name, func(t *testing.T) { f(t, stateless) })
	}
}

// TestMCPGoSDKMalformedBodyIsAParseError: a body that is not a JSON-RPC
// message is answered -32700 with id null, as JSON-RPC requires, in place
// of the SDK's plain-text 400 (whose text is sanitized into the message),
// never problem+json.
func TestMCPGoSDKMalformedBodyIsAParseError(t *testing.T) {
	mcpModes(t, func(t *testing.T, stateless bool) {
		url := mcpStack(t, newMCPServer(nil), stateless)
		for _, body := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":`,
			`password=hunter2hunter2&dsn=` + rpcDSN,
			``,
		} {
			resp, out := do(t, "POST", url, mcpHeader(), body)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%q: %s", body, out)
			reply := rpcErrorReply(t, resp, out)
			assert.Equal(t, "null", string(reply.ID), "%q", body)
			assert.Equal(t, jsonrpcParseError, reply.Error.Code, "%q", body)
			p := rpcProblem(t, resp, reply)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		}
	})
}

// TestMCPGoSDKKeepsItsJSONRPCErrors: the SDK's own JSON-RPC errors keep
// status, id and code (and the data the client reads), their message
// sanitized; its plain-text refusals become JSON-RPC errors with the
// request's id.
func TestMCPGoSDKKeepsItsJSONRPCErrors(t *testing.T) {
	// The SDK quotes the request's _meta protocol version in its error.
	const planted = "x " + rpcSecret + " " + rpcDSN
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + planted + `"}`

	t.Run("stateless header mismatch", func(t *testing.T) {
		url := mcpStack(t, newMCPServer(nil), true)
		resp, out := do(t, "POST", url, mcpHeader("Mcp-Protocol-Version", "2026-07-28"),
			`{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/list","params":{`+meta+`}}`)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		reply := rpcErrorReply(t, resp, out)
		assert.Equal(t, "9007199254740991", string(reply.ID))
		assert.EqualValues(t, mcp.CodeHeaderMismatch, reply.Error.Code)
		assert.Contains(t, reply.Error.Message, "does not match request")
		assert.Contains(t, reply.Error.Message, "[REDACTED:")
	})
	t.Run("stateful unsupported version", func(t *testing.T) {
		url := mcpStack(t, newMCPServer(nil), false)
		resp, out := do(t, "POST", url, mcpHeader("Mcp-Protocol-Version", "2026-07-28"),
			`{"jsonrpc":"2.0","id":"v-\u00e9","method":"tools/list","params":{`+meta+`}}`)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		reply := rpcErrorReply(t, resp, out)
		assert.Equal(t, `"v-é"`, string(reply.ID), "the id the SDK wrote")
		assert.EqualValues(t, mcp.CodeUnsupportedProtocolVersion, reply.Error.Code)
		assert.JSONEq(t, `{"supported":["2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"requested":"2026-07-28"}`,
			string(reply.Error.Data), "the data the client reads is intact")
	})
	mcpModes(t, func(t *testing.T, stateless bool) {
		url := mcpStack(t, newMCPServer(nil), stateless)
		resp, out := do(t, "POST", url, mcpHeader(), `{"jsonrpc":"2.0","id":"q-\u00e9\"1","method":"no/such"}`)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		reply := rpcErrorReply(t, resp, out)
		assert.Equal(t, `"q-\u00e9\"1"`, string(reply.ID), "the request's id, verbatim")
		assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code)
		assert.Contains(t, reply.Error.Message, "no/such")
		rpcProblem(t, resp, reply)
	})
}

// TestMCPGoSDKPanicBelowTheMiddleware: a panic in a middleware between New
// and the SDK, before the SDK read the body or once it has read it all, is answered
// with a JSON-RPC error carrying the request's id, never problem+json.
func TestMCPGoSDKPanicBelowTheMiddleware(t *testing.T) {
	before := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Boom") == "before" {
				panic(errors.New("audit sink down: " + rpcDSN))
			}
			next.ServeHTTP(w, r)
		})
	}
	after := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Boom") == "after" {
				r.Body = panicAtEOF{r.Body}
			}
			next.ServeHTTP(w, r)
		})
	}
	mcpModes(t, func(t *testing.T, stateless bool) {
		url := mcpStack(t, newMCPServer(nil), stateless, before, after)
		for _, where := range []string{"before", "after"} {
			resp, out := do(t, "POST", url, mcpHeader("X-Boom", where),
				`{"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}},"jsonrpc":"2.0","id":9007199254740993}`)
			require.Equal(t, http.StatusInternalServerError, resp.StatusCode, "%s: %s", where, out)
			reply := rpcErrorReply(t, resp, out)
			assert.Equal(t, "9007199254740993", string(reply.ID), where)
			assert.Equal(t, jsonrpcInternalError, reply.Error.Code)
			p := rpcProblem(t, resp, reply)
			assert.Equal(t, toolerr.CodeInternal, p["code"])
		}
	})
}

// panicAtEOF is a request body that panics once the SDK has read all of
// it, as a body-inspecting middleware (a signature check) might.
type panicAtEOF struct{ io.ReadCloser }

func (p panicAtEOF) Read(b []byte) (int, error) {
	n, err := p.ReadCloser.Read(b)
	if err == io.EOF {
		panic("signature check: key " + rpcSecret + " rejected")
	}
	return n, err
}

// TestMCPGoSDKUnauthorizedKeepsWWWAuthenticate: the SDK's bearer-token
// middleware answers 401 with the WWW-Authenticate header MCP clients
// start authorization from; the answer keeps it. The verifier's error
// text is sanitized, and a verifier that fails is a -32603.
func TestMCPGoSDKUnauthorizedKeepsWWWAuthenticate(t *testing.T) {
	const metadata = "https://ledger.example.com/.well-known/oauth-protected-resource"
	verifier := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token == "broken" {
			return nil, errors.New("introspection via " + rpcDSN + " failed: " + rpcSecret)
		}
		return nil, fmt.Errorf("%w: revoked at %s (%s)", auth.ErrInvalidToken, rpcDSN, rpcSecret)
	}
	url := mcpStack(t, newMCPServer(nil), true,
		auth.RequireBearerToken(verifier, &auth.RequireBearerTokenOptions{ResourceMetadataURL: metadata}))
	resp, out := do(t, "POST", url, mcpHeader("Authorization", "Bearer abc"), `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, `Bearer resource_metadata="`+metadata+`"`, resp.Header.Get("WWW-Authenticate"))
	reply := rpcErrorReply(t, resp, out)
	assert.Equal(t, "4", string(reply.ID))
	assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code)
	assert.Equal(t, string(toolerr.CategoryAuth), rpcProblem(t, resp, reply)["category"])

	resp, out = do(t, "POST", url, mcpHeader("Authorization", "Bearer broken"), `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	require.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("WWW-Authenticate"), "only a 401 or 403 keeps it")
	reply = rpcErrorReply(t, resp, out)
	assert.Equal(t, "5", string(reply.ID))
	assert.Equal(t, jsonrpcInternalError, reply.Error.Code)
	assert.NotContains(t, reply.Error.Message, "introspection", "a local 5xx's text is for the log")
}

// TestMCPGoSDKNoSessionStream: a stateless server refuses the GET of an
// SSE stream with 405 and Allow: POST, which clients read from the status
// and header; the body is a JSON-RPC error, id null.
func TestMCPGoSDKNoSessionStream(t *testing.T) {
	url := mcpStack(t, newMCPServer(nil), true)
	resp, out := do(t, "GET", url, http.Header{"Accept": {"text/event-stream"}, "Mcp-Protocol-Version": {"2025-06-18"}}, "")
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
	reply := rpcErrorReply(t, resp, out)
	assert.Equal(t, "null", string(reply.ID))
	assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code)
}

// readSSEUntil reads an SSE body line by line until a data line contains
// want, and returns what it read.
func readSSEUntil(t *testing.T, body io.Reader, want string) string {
	t.Helper()
	var seen strings.Builder
	buf := make([]byte, 1)
	var line []byte
	for {
		n, err := body.Read(buf)
		if n == 1 {
			seen.WriteByte(buf[0])
			if buf[0] != '\n' {
				line = append(line, buf[0])
				continue
			}
			if strings.HasPrefix(string(line), "data:") && strings.Contains(string(line), want) {
				return seen.String()
			}
			line = line[:0]
		}
		require.NoError(t, err, "the stream ended before %q: %s", want, seen.String())
	}
}
