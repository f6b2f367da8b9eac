package toolerrmcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// installHooks adds the adapter's hooks to the server's, creating them
// when the server has none:
//
//   - OnBeforeCallTool, after the server's own: gives the call its state
//     (callstate.go) and, with WithUnknownToolResult, turns a call of a
//     tool the client cannot call to the tool that answers TOOL_NOT_FOUND
//     (unknown.go);
//   - OnSuccess, before every other: completes mcp-go's own answer to
//     rejected arguments (validation.go) and hides that tool from
//     tools/list, so that every other hook sees the result the client
//     gets, with the tool name the client called;
//   - OnError, before every other: puts that name back for the hooks that
//     follow.
func (a *adapter) installHooks() {
	hooks := a.server.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(a.server)
	}
	hooks.AddBeforeCallTool(a.beforeCallTool)
	hooks.OnSuccess = append([]server.OnSuccessHookFunc{a.onSuccess}, hooks.OnSuccess...)
	hooks.OnError = append([]server.OnErrorHookFunc{a.onError}, hooks.OnError...)
}

// beforeCallTool runs before mcp-go looks the tool up, on the request it
// then copies into the call.
func (a *adapter) beforeCallTool(ctx context.Context, _ any, req *mcp.CallToolRequest) {
	if req == nil || stateOf(req) != nil {
		return // a second Install on the server: the first one's state serves both
	}
	st := attachState(req)
	if a.core.UnknownToolResult {
		a.redirectUnknown(ctx, req, st)
	}
}

// onSuccess runs once mcp-go has the result of a request, before it is
// serialized.
func (a *adapter) onSuccess(ctx context.Context, _ any, method mcp.MCPMethod, message any, res any) {
	switch method {
	case mcp.MethodToolsCall:
		req, _ := message.(*mcp.CallToolRequest)
		st := stateOf(req)
		if st == nil {
			return
		}
		if st.called != "" {
			req.Params.Name = st.called
		}
		if r, ok := res.(*mcp.CallToolResult); ok && !st.ran.Load() {
			a.rejected(ctx, req, r)
		}
	case mcp.MethodToolsList:
		if a.core.UnknownToolResult {
			a.listed(ctx, res)
		}
	}
}

// onError runs when mcp-go answers a request with a protocol error.
func (a *adapter) onError(_ context.Context, _ any, method mcp.MCPMethod, message any, _ error) {
	if method != mcp.MethodToolsCall {
		return
	}
	req, _ := message.(*mcp.CallToolRequest)
	if st := stateOf(req); st != nil && st.called != "" {
		req.Params.Name = st.called
	}
}
