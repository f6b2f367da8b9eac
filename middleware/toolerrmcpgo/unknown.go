package toolerrmcpgo

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Answering a call of an unknown tool with a tool result. mcp-go looks the
// tool up before any tool middleware runs and answers a name it does not
// find with a protocol error (-32602) that no hook can change. What a hook
// can change is the name it looks up: the OnBeforeCallTool hook sees the
// request before mcp-go copies it into the call. So, with
// WithUnknownToolResult, [Install] registers one more tool,
// [unknownToolName], which tools/list never shows (the OnSuccess hook
// takes it out), and the hook turns a call of a name the client cannot
// call to it; the adapter's middleware then answers TOOL_NOT_FOUND for
// the name the client called, and the hooks that follow see that name
// again.
//
// Which names the client can call is what tools/list answers it: the
// session's tools (server.SessionWithTools), the server's and its task
// tools, after the server's tool filters (server.WithToolFilter), which
// are an access boundary: a tool they hide is never named. The hook asks
// the server itself, through s.HandleMessage under the call's context,
// and only for a name that is neither a session tool nor a server tool:
// a call of a known tool costs one map lookup. Limits: a server tool that
// a filter hides from this client still gets mcp-go's protocol error; the
// server's hooks see that tools/list request (its id is
// [listRequestID]); an application that replaces the server's tools
// (SetTools, DeleteTools) removes the answering tool too, and calls of
// unknown tools then get mcp-go's protocol error again.

// unknownToolName is the name of the tool that answers calls of unknown
// tools. A client that calls it by name is told it does not exist.
const unknownToolName = "toolerr.unknown_tool"

// listRequestID is the JSON-RPC id of the tools/list requests the adapter
// makes of the server to learn the tools a client can call.
const listRequestID = "io.toolerr/tools-list"

// maxToolPages bounds the tools/list pages read for one unknown name.
const maxToolPages = 64

// unknownToolDef is the definition of the answering tool. Its input
// schema accepts any arguments, so that mcp-go's input validation passes
// the call on to the answer.
func unknownToolDef() mcp.Tool {
	return mcp.Tool{
		Name:           unknownToolName,
		Description:    "Answers calls of tools this server does not have (toolerr).",
		RawInputSchema: json.RawMessage(`{}`),
	}
}

// redirectUnknown turns req, a call of a tool the client cannot call, to
// the answering tool, and notes in st the name called and the tools the
// client can call. A call of any tool the client can call, or one the
// adapter cannot tell about, is left as it is.
func (a *adapter) redirectUnknown(ctx context.Context, req *mcp.CallToolRequest, st *callState) {
	name := req.Params.Name
	if name != unknownToolName {
		if _, ok := a.findTool(ctx, name); ok {
			return
		}
	}
	known, answerable, ok := a.callableTools(ctx)
	if !ok || !answerable || slices.Contains(known, name) {
		return // a task tool, or a server that does not list its tools to the adapter
	}
	st.called, st.known = name, known
	req.Params.Name = unknownToolName
}

// listingKey is the context key of a tools/list request the adapter makes.
type listingKey struct{}

// listing is what the OnSuccess hook saw of such a request: whether the
// answering tool was among the tools listed (the server's filters let the
// client call it).
type listing struct{ answerable bool }

// callableTools returns the names of the tools the client of ctx can
// call, as the server lists them to it page by page, and whether the
// answering tool is callable too; ok is false when the server does not
// answer the listing.
func (a *adapter) callableTools(ctx context.Context) (names []string, answerable, ok bool) {
	l := &listing{}
	ctx = context.WithValue(ctx, listingKey{}, l)
	params := map[string]any{}
	for range maxToolPages {
		msg, err := json.Marshal(map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": listRequestID,
			"method": mcp.MethodToolsList, "params": params})
		if err != nil {
			return nil, false, false
		}
		resp, isResponse := a.server.HandleMessage(ctx, msg).(mcp.JSONRPCResponse)
		if !isResponse {
			return nil, false, false
		}
		page, isList := resp.Result.(mcp.ListToolsResult)
		if !isList {
			return nil, false, false
		}
		for _, t := range page.Tools {
			names = append(names, t.Name)
		}
		if page.NextCursor == "" {
			return names, l.answerable, true
		}
		params = map[string]any{"cursor": page.NextCursor}
	}
	return nil, false, false
}

// listed takes the answering tool out of res, a tools/list result, in
// place (mcp-go serializes the result its hooks saw), and notes that it
// was listed for the adapter's own listing.
func (a *adapter) listed(ctx context.Context, res any) {
	list, ok := res.(*mcp.ListToolsResult)
	if !ok || list == nil {
		return
	}
	i := slices.IndexFunc(list.Tools, func(t mcp.Tool) bool { return t.Name == unknownToolName })
	if i < 0 {
		return
	}
	if l, ok := ctx.Value(listingKey{}).(*listing); ok {
		l.answerable = true
	}
	list.Tools = slices.Concat(list.Tools[:i], list.Tools[i+1:])
}

// unknownTool is the TOOL_NOT_FOUND result of a call of name, with the
// nearest of known. The called name has no definition, so no
// outputSchema: the problem object is the structured content too.
func (a *adapter) unknownTool(ctx context.Context, name string, known []string) *mcp.CallToolResult {
	return result(a.core.UnknownTool(ctx, name, known), true)
}

// unknownToolHandler is the answering tool's handler. The adapter's
// middleware answers before it runs; it answers alike when it is called
// without that middleware (its ServerTool.Handler, called by hand).
func (a *adapter) unknownToolHandler(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, known := req.Params.Name, []string(nil)
	if st := stateOf(&req); st != nil && st.called != "" {
		name, known = st.called, st.known
	}
	return a.unknownTool(a.callContext(ctx, &req, ""), name, known), nil
}
