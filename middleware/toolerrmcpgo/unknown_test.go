package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// unknownOn are the options of a server that answers unknown tools.
var unknownOn = []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet), toolerrmcpgo.WithUnknownToolResult(true)}

// listed returns the names tools/list answers, over every page.
func listed(t *testing.T, s *server.MCPServer) []string {
	t.Helper()
	var names []string
	cursor := ""
	for range 100 {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcIDs.Add(1), "method": "tools/list", "params": params})
		require.NoError(t, err)
		a := handle(t, context.Background(), s, msg)
		require.Nil(t, a.Error)
		tools, _ := a.Result["tools"].([]any)
		for _, tool := range tools {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		if cursor, _ = a.Result["nextCursor"].(string); cursor == "" {
			return names
		}
	}
	t.Fatal("tools/list never ends")
	return nil
}

// allowed returns the allowed_values of a problem as strings.
func allowed(p map[string]any) []string {
	var out []string
	vs, _ := p["allowed_values"].([]any)
	for _, v := range vs {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}

// TestUnknownToolWithoutTheOption: mcp-go's protocol error, untouched.
func TestUnknownToolWithoutTheOption(t *testing.T) {
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)})
	a := handle(t, context.Background(), s, callMessage("refund_ordr", map[string]any{}))
	require.NotNil(t, a.Error)
	assert.Equal(t, -32602, a.Error.Code)
	assert.Equal(t, "tool 'refund_ordr' not found: tool not found", a.Error.Message)
	assert.NotContains(t, listed(t, s), "toolerr.unknown_tool")
}

// TestUnknownToolResult: with the option, a misspelt tool is TOOL_NOT_FOUND
// naming the nearest tools and the one plausibly meant; the tool that
// answers is never listed and answers for itself as unknown; the server's
// hooks see the name the client called; pagination does not hide tools.
func TestUnknownToolResult(t *testing.T) {
	var seen []string
	hooks := &server.Hooks{}
	hooks.AddAfterCallTool(func(_ context.Context, _ any, req *mcp.CallToolRequest, _ any) { seen = append(seen, req.Params.Name) })
	s := (&orders{}).server(noRecovery, unknownOn, server.WithHooks(hooks), server.WithPaginationLimit(3))

	res := callTool(t, s, "refund_ordr", map[string]any{"order_id": "ord_1"})
	p := problemOf(t, res)
	assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
	assert.Equal(t, "name", p["field"])
	assert.Equal(t, "refund_order", p["suggested_value"])
	assert.Equal(t, []string{"refund_order"}, allowed(p), "refund_typed is not near refund_ordr")
	assert.Equal(t, `No tool is named "refund_ordr".`, p["detail"])
	assert.NotContains(t, p, "tool", "the error names no tool: none was called")
	assert.True(t, strings.HasPrefix(textOf(t, res), "TOOL_NOT_FOUND (not_found): No tool is named \"refund_ordr\".\n"), textOf(t, res))
	assert.Equal(t, []string{"refund_ordr"}, seen, "the hooks see the name the client called")

	names := listed(t, s)
	assert.Contains(t, names, "refund_order")
	assert.NotContains(t, names, "toolerr.unknown_tool", "the answering tool is never listed")

	p = problemOf(t, callTool(t, s, "toolerr.unknown_tool", map[string]any{}))
	assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
	assert.NotContains(t, allowed(p), "toolerr.unknown_tool")

	p = problemOf(t, callTool(t, s, "zzzz", map[string]any{}))
	assert.Nil(t, p["allowed_values"], "a name near no tool gets no padding")
	assert.Nil(t, p["suggested_value"])

	assert.Equal(t, "fine", textOf(t, callTool(t, s, "ok", map[string]any{})), "a known tool runs")
}

// TestUnknownToolNamesNoHiddenTool: a tool the server's filter hides from
// a client is never named to it, however close the call; and a filter
// that hides the answering tool leaves mcp-go's protocol error, naming the
// tool the client called.
func TestUnknownToolNamesNoHiddenTool(t *testing.T) {
	hide := func(names ...string) server.ServerOption {
		return server.WithToolFilter(func(_ context.Context, tools []mcp.Tool) []mcp.Tool {
			var out []mcp.Tool
			for _, tool := range tools {
				hidden := false
				for _, n := range names {
					hidden = hidden || tool.Name == n
				}
				if !hidden {
					out = append(out, tool)
				}
			}
			return out
		})
	}
	s := (&orders{}).server(noRecovery, unknownOn, hide("refund_order"))
	p := problemOf(t, callTool(t, s, "refund_ordr", map[string]any{}))
	assert.NotContains(t, allowed(p), "refund_order", "a hidden tool is never named, however close")
	assert.Nil(t, p["suggested_value"])
	p = problemOf(t, callTool(t, s, "refund", map[string]any{}))
	assert.Equal(t, []string{"refund_typed"}, allowed(p), "the visible neighbour only")
	assert.Nil(t, p["suggested_value"], "which is not plainly what refund means")

	s = (&orders{}).server(noRecovery, unknownOn, hide("toolerr.unknown_tool"))
	a := handle(t, context.Background(), s, callMessage("refund_ordr", map[string]any{}))
	require.NotNil(t, a.Error)
	assert.Equal(t, "tool 'refund_ordr' not found: tool not found", a.Error.Message)
}

// TestUnknownToolOfASession: over a stateful session, the session's own
// tools are known and named; the call of one runs.
func TestUnknownToolOfASession(t *testing.T) {
	r := newRig(t, noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithUnknownToolResult(true)})
	a := connectMCPGo(t, r.url+"/mcp-session", newWire(nil), legacy)
	require.NotEmpty(t, a.session())
	require.NoError(t, r.mcp.AddSessionTool(a.session(), mcp.NewTool("session_report"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("report"), nil
		}))
	res, err := a.call(t, "session_reprt", nil)
	require.NoError(t, err)
	p := problemOf(t, res)
	assert.Equal(t, "session_report", p["suggested_value"])

	res, err = a.call(t, "session_report", nil)
	require.NoError(t, err)
	assert.Equal(t, "report", textOf(t, res))

	other := connectMCPGo(t, r.url+"/mcp-session", newWire(nil), legacy)
	res, err = other.call(t, "session_reprt", nil)
	require.NoError(t, err)
	assert.NotContains(t, allowed(problemOf(t, res)), "session_report", "another session's tool is not named")
}

// TestUnknownToolHostileName: a megabyte of name, or one holding a live
// key, is answered without repeating it.
func TestUnknownToolHostileName(t *testing.T) {
	s := (&orders{}).server(noRecovery, unknownOn)
	p := problemOf(t, callTool(t, s, strings.Repeat("refund_order", 100_000), map[string]any{}))
	assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
	assert.Less(t, len(p["detail"].(string)), 200)
	assert.Nil(t, p["allowed_values"])

	res := callTool(t, s, "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd", map[string]any{})
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "Rk7Qm2ZpX9aLw4Tn")
}

// TestUnknownToolOfATaskTool: a task tool is known; its synchronous call
// keeps mcp-go's own answer.
func TestUnknownToolOfATaskTool(t *testing.T) {
	s := (&orders{}).server(noRecovery, unknownOn, server.WithTaskCapabilities(true, true, true))
	s.AddTaskTool(mcp.NewTool("export_report", mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return &mcp.CreateTaskResult{}, nil
		})
	a := handle(t, context.Background(), s, callMessage("export_report", map[string]any{}))
	require.NotNil(t, a.Error, "%v", a.Result)
	assert.Equal(t, "tool 'export_report' requires task augmentation", a.Error.Message)
}

// TestUnknownToolOverHTTP: every Go client, stateless and stateful
// protocol alike, gets the TOOL_NOT_FOUND result over streamable HTTP,
// under toolerr's middleware, with the POST's request id.
func TestUnknownToolOverHTTP(t *testing.T) {
	for _, kind := range goClients {
		t.Run(kind.name, func(t *testing.T) {
			r := newRig(t, noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithUnknownToolResult(true)})
			w := newWire(nil)
			a := kind.connect(t, r.url+"/mcp-session", w)
			res, err := a.call(t, "refund_ordr", map[string]any{"note": "unknown"})
			require.NoError(t, err)
			p := problemOf(t, res)
			assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
			assert.Equal(t, "refund_order", p["suggested_value"])
			assert.Equal(t, w.callWith(t, "unknown").header.Get("X-Request-Id"), p["request_id"])
		})
	}
}

// TestInstallTwice: a second Install on one server changes nothing the
// client sees.
func TestInstallTwice(t *testing.T) {
	s := (&orders{}).server(noRecovery, unknownOn)
	toolerrmcpgo.Install(s, unknownOn...)
	p := problemOf(t, callTool(t, s, "refund_ordr", map[string]any{}))
	assert.Equal(t, `No tool is named "refund_ordr".`, p["detail"])
	assert.Equal(t, "refund_order", p["suggested_value"])
	assert.Equal(t, toolerr.CodeInternal, problemOf(t, callTool(t, s, "db_down", map[string]any{}))["code"])
	assert.NotContains(t, listed(t, s), "toolerr.unknown_tool")
}
