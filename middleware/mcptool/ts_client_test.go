package mcptool_test

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/mcptest"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// tsCall is one call of client.mjs.
type tsCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// tsOutcome is one line client.mjs prints for a call.
type tsOutcome struct {
	Tool   string         `json:"tool"`
	Result map[string]any `json:"result"`
	Threw  string         `json:"threw"`
}

// runTSClient runs client.mjs against url and returns the tools it listed
// and the outcome of each call, by tool name.
func runTSClient(t *testing.T, url string, calls []tsCall) (tools []map[string]any, out map[string]tsOutcome) {
	t.Helper()
	node := mcptest.RequireTSClient(t)
	arg, err := json.Marshal(calls)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", url, string(arg))
	cmd.Dir = mcptest.TSClientDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "client.mjs: %s", stderr.String())
	out = map[string]tsOutcome{}
	sc := bufio.NewScanner(strings.NewReader(string(stdout)))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Tools []map[string]any `json:"tools"`
			tsOutcome
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line), sc.Text())
		if line.Tools != nil {
			tools = line.Tools
			continue
		}
		out[line.Tool] = line.tsOutcome
	}
	return tools, out
}

type quoteIn struct {
	Symbol string `json:"symbol" jsonschema:"the ticker symbol"`
}

type quoteOut struct {
	Price float64 `json:"price"`
}

// TestTypeScriptClientGetsTypedToolErrors is the host's view of issue 13
// §2: the official TypeScript SDK lists the tools, calls a typed tool
// (declared outputSchema) and an untyped one, both failing, over
// streamable HTTP under middleware.New(). Neither call throws; each is an
// isError result whose text is the observation, and a typed tool's
// structuredContent never breaks its schema.
func TestTypeScriptClientGetsTypedToolErrors(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "quotes", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware())
	fail := func(context.Context, *mcp.CallToolRequest, quoteIn) (*mcp.CallToolResult, quoteOut, error) {
		return nil, quoteOut{}, toolerr.Default().New(toolerr.CodeNotFound, "no symbol ZZZZ is listed.").WithField("symbol")
	}
	mcptool.AddTool(server, &mcp.Tool{Name: "get_quote", Description: "Latest price of a symbol."}, fail)
	mcptool.AddTool(server, &mcp.Tool{Name: "get_quote_untyped", Description: "Latest price, untyped."},
		func(ctx context.Context, req *mcp.CallToolRequest, in quoteIn) (*mcp.CallToolResult, any, error) {
			_, _, err := fail(ctx, req, in)
			return nil, nil, err
		})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)))(h))
	defer srv.Close()

	tools, out := runTSClient(t, srv.URL, []tsCall{
		{Name: "get_quote", Arguments: map[string]any{"symbol": "ZZZZ"}},
		{Name: "get_quote_untyped", Arguments: map[string]any{"symbol": "ZZZZ"}},
	})
	require.Len(t, tools, 2)
	for _, tool := range tools {
		assert.Equal(t, tool["name"] == "get_quote", tool["hasOutputSchema"], "%v", tool)
	}
	for _, name := range []string{"get_quote", "get_quote_untyped"} {
		o := out[name]
		require.Empty(t, o.Threw, "%s: the TypeScript client threw instead of returning the tool error", name)
		require.NotNil(t, o.Result, name)
		assert.Equal(t, true, o.Result["isError"], name)
		content, _ := o.Result["content"].([]any)
		require.Len(t, content, 1, name)
		txt, _ := content[0].(map[string]any)["text"].(string)
		assert.True(t, strings.HasPrefix(txt, "NOT_FOUND (not_found): no symbol ZZZZ is listed.\nretryable: false\nfield: symbol\n"), "%s: %q", name, txt)
		meta, _ := o.Result["_meta"].(map[string]any)
		p, _ := meta[mcptool.MetaProblem].(map[string]any)
		assert.Equal(t, "NOT_FOUND", p["code"], "%s: the problem object travels in _meta", name)
	}
	_, typedHasSC := out["get_quote"].Result["structuredContent"]
	assert.False(t, typedHasSC, "a typed tool's error carries no structuredContent to break its outputSchema")
	sc, _ := out["get_quote_untyped"].Result["structuredContent"].(map[string]any)
	assert.Equal(t, "NOT_FOUND", sc["code"], "without an outputSchema the problem object stays in structuredContent")
}

// TestDeclaredOutputSchemaKeepsStructuredContentEmpty: a tool whose
// handler returns any but which declares an outputSchema gets its problem
// object in _meta only, over the go-sdk client too.
func TestDeclaredOutputSchemaKeepsStructuredContentEmpty(t *testing.T) {
	server := newServer()
	schema := map[string]any{"type": "object", "properties": map[string]any{"price": map[string]any{"type": "number"}}, "required": []any{"price"}}
	mcptool.AddTool(server, &mcp.Tool{Name: "get_quote", OutputSchema: schema},
		func(context.Context, *mcp.CallToolRequest, quoteIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, toolerr.Default().New(toolerr.CodeNotFound, "no such symbol.")
		})
	res := call(t, connect(t, server), "get_quote", map[string]any{"symbol": "ZZZZ"})
	assert.True(t, res.IsError)
	assert.Nil(t, res.StructuredContent)
	assert.Equal(t, "NOT_FOUND", problem(t, res)["code"])
}

// TestTypeScriptClientGetsArgumentRepairs: the official TypeScript SDK
// calls a plain mcp.AddTool tool, typed output included, with arguments
// that break its input schema. It gets an isError result (no throw) whose
// text is the observation, every violation on its own line, and whose
// _meta holds the problem with violations and example_request; the
// repaired call then succeeds.
func TestTypeScriptClientGetsArgumentRepairs(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "harbor", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(slog.New(slog.DiscardHandler))))
	var ran atomic.Int32
	tool := bookTool()
	tool.OutputSchema = map[string]any{"type": "object", "properties": map[string]any{"berth": map[string]any{"type": "string"}}}
	mcp.AddTool(server, tool, func(_ context.Context, _ *mcp.CallToolRequest, in bookArgs) (*mcp.CallToolResult, map[string]any, error) {
		ran.Add(1)
		return nil, map[string]any{"berth": "B7"}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)))(h))
	defer srv.Close()

	repaired := map[string]any{"vessel": "IMO9321483", "port": "hamburg", "hours": 72}
	_, out := runTSClient(t, srv.URL, []tsCall{
		{Name: "book_berth", Arguments: map[string]any{"vessel": "IMO9321483", "port": "Hamburg", "hours": 90}},
	})
	o := out["book_berth"]
	require.Empty(t, o.Threw, "the TypeScript client threw instead of returning the argument error")
	assert.Equal(t, true, o.Result["isError"])
	_, hasSC := o.Result["structuredContent"]
	assert.False(t, hasSC, "the declared outputSchema is not broken")
	content, _ := o.Result["content"].([]any)
	require.Len(t, content, 1)
	txt, _ := content[0].(map[string]any)["text"].(string)
	assert.Contains(t, txt, "\nviolation: /hours must be between 1 and 72")
	assert.Contains(t, txt, "\nviolation: /port must be one of allowed_values")
	meta, _ := o.Result["_meta"].(map[string]any)
	p, _ := meta[mcptool.MetaProblem].(map[string]any)
	assert.Equal(t, "VALIDATION_FAILED", p["code"])
	assert.Equal(t, repaired, toInts(p["example_request"]))
	assert.Zero(t, ran.Load())

	_, out = runTSClient(t, srv.URL, []tsCall{{Name: "book_berth", Arguments: repaired}})
	assert.NotEqual(t, true, out["book_berth"].Result["isError"], "%v", out["book_berth"])
	assert.Equal(t, int32(1), ran.Load())
}

// toInts returns v with its whole float64 numbers as ints, for comparing
// decoded JSON with literals.
func toInts(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		if f, ok := x.(float64); ok && f == float64(int(f)) {
			x = int(f)
		}
		out[k] = x
	}
	return out
}
