package toolerrmcpgo

import (
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// callState is what the adapter's hooks and its tool handler middleware
// share about one tools/call request.
//
// mcp-go hands its OnBeforeCallTool and OnSuccess hooks a pointer to the
// request, and the tool handlers (middlewares included) a copy of it made
// after the OnBeforeCallTool hooks ran. The state travels from the one to
// the other as a pointer in the request's embedded mcp.Request.Params.Meta:
// CallToolRequest's own Params field shadows that one, so JSON never fills
// it, mcp-go never reads it, and a handler never sees it as the client's
// _meta (CallToolRequest.Params.Meta). Every copy of the request (a
// retried multi round-trip call, a call run as a task) carries the same
// pointer. The hidden Meta is the state's own, and holds the state in its
// only untyped member, ProgressToken: one allocation per call.
type callState struct {
	// meta is the hidden Meta the request points to.
	meta mcp.Meta
	// ran is set by the middleware when it runs for the call: a failed
	// result of a call it did not run for is mcp-go's own answer, made
	// before any tool middleware (WithInputSchemaValidation's).
	ran atomic.Bool
	// called is the tool name the client called when the adapter turned
	// the call to [unknownToolName], the tool that answers TOOL_NOT_FOUND
	// (unknown.go); empty otherwise.
	called string
	// known is the names of the tools the client may call, for that
	// answer.
	known []string
}

// attachState gives req a new state and returns it.
func attachState(req *mcp.CallToolRequest) *callState {
	st := &callState{}
	st.meta.ProgressToken = st
	req.Request.Params.Meta = &st.meta
	return st
}

// stateOf returns the state of req, or nil when the adapter's hook did not
// see it (a request made by hand, or a handler run outside mcp-go's
// dispatch).
func stateOf(req *mcp.CallToolRequest) *callState {
	if req == nil || req.Request.Params.Meta == nil {
		return nil
	}
	st, _ := req.Request.Params.Meta.ProgressToken.(*callState)
	return st
}
