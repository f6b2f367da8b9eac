package toolerrmcpgo

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/mcpcore"
)

// errNoResult is the Go cause of a handler that returned neither a result
// nor an error, which mcp-go would answer with a protocol error.
var errNoResult = errors.New("the tool handler returned no result and no error")

// middleware is the adapter's tool handler middleware (server.Use). For
// each call it
//
//   - marks the call's state (callstate.go) as run, so that the OnSuccess
//     hook knows a failed result it did not see is mcp-go's own;
//   - runs the handler under a request scope of the call's own
//     ([adapter.callContext]);
//   - answers a call the OnBeforeCallTool hook found to name no tool with
//     TOOL_NOT_FOUND (unknown.go);
//   - runs the call at most once per idempotency key, or refuses its
//     accidental repeat, with WithIdempotency ([adapter.once],
//     idempotency.go);
//   - turns a panic, a returned error and a missing result into a failed
//     tool result ([adapter.run]).
//
// A result, failed or not, that the handler returned without an error
// passes untouched, but for the secrets and payment data of a failed
// one's text, which are redacted.
func (a *adapter) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := stateOf(&req)
		if st != nil {
			st.ran.Store(true)
		}
		if st != nil && st.called != "" {
			ctx = a.callContext(ctx, &req, "") // a name the client made up is no attribute
			return a.unknownTool(ctx, st.called, st.known), nil
		}
		ctx = a.callContext(ctx, &req, req.Params.Name)
		return a.once(ctx, req, next)
	}
}

// handled is what the adapter made of one run of a tool handler.
type handled struct {
	// res is the result the client gets.
	res *mcp.CallToolResult
	// err is a protocol error passed on as the handler returned it (a URL
	// elicitation), nil otherwise.
	err error
	// cause is the error of a failed result the adapter made (its
	// toolerr error), nil when the handler's result passed untouched.
	cause error
	// panicked says the handler panicked, under the adapter or under
	// server.WithRecovery inside it.
	panicked bool
}

// run runs next for req and makes its outcome what the client gets: a
// panic, a returned error and a missing result become a failed tool result
// ([adapter.failed]); a result returned without an error passes untouched,
// except that a failed one has the secrets and payment data of its text
// redacted ([adapter.redactOwn]).
func (a *adapter) run(ctx context.Context, req mcp.CallToolRequest, next server.ToolHandlerFunc) (h handled) {
	defer func() {
		if v := recover(); v != nil {
			h = handled{res: a.panicked(ctx, &req, v), panicked: true}
		}
	}()
	res, err := next(ctx, req)
	switch {
	case err != nil:
		return a.failed(ctx, &req, res, err)
	case res == nil:
		return a.failed(ctx, &req, nil, errNoResult)
	case res.IsError:
		return handled{res: a.redactOwn(res)} // own_error_result.go
	}
	return handled{res: res}
}

// callContext returns the context the call req runs under: a request
// scope of its own holding the call's ids (toolerr.RequestID,
// toolerr.TraceID), so that the ids its error carries and what its
// handler records (toolerr.RecordIntent) belong to this call alone. Over
// streamable HTTP the ids are those toolerr's HTTP middleware wrote on the
// POST that carried the call, which mcp-go hands the handler
// (CallToolRequest.Header); over stdio and in process, where mcp-go's
// header map is empty, those of the context's request scope, if any.
// The call is counted in toolerr.tool.calls under tool, the name of a
// tool the server has, or "" for a call of one it does not have.
func (a *adapter) callContext(ctx context.Context, req *mcp.CallToolRequest, tool string) context.Context {
	header := req.Header
	if len(header) == 0 {
		header = nil
	}
	ctx = a.core.CallContext(ctx, nil, header)
	if a.core.ClaimCount(ctx) {
		a.core.CountCall(tool)
	}
	return ctx
}

// failed returns what the client gets for err, the error the handler of
// req returned (res is its result, if any):
//
//   - an mcp.URLElicitationRequiredError anywhere in the chain is the
//     handler asking the client for a URL elicitation, a protocol error
//     by MCP's rule: passed on untouched, as mcp-go sends it;
//   - the error server.WithRecovery makes of a panic, when that
//     middleware runs inside the adapter's: INTERNAL_ERROR, the panic's
//     text to the log only;
//   - a refusal of the call's arguments (mcp-go's argument accessors,
//     BindArguments): VALIDATION_FAILED naming the field;
//   - any other error: the core's failure (a *toolerr.Error as it is,
//     sanitized; a Go error the classifier knows, classified; anything
//     else INTERNAL_ERROR, its text to the log only).
func (a *adapter) failed(ctx context.Context, req *mcp.CallToolRequest, res *mcp.CallToolResult, err error) handled {
	if elicitation(err) {
		return handled{res: res, err: err}
	}
	name := req.Params.Name
	d := a.def(ctx, name)
	call := a.call(name, d)
	if _, ok := recoveredPanic(err, name); ok {
		e := a.core.Registry.New(toolerr.CodeInternal, "").WithCause(err)
		return failure(a.core.Rejected(ctx, call, e), d.structured, true)
	}
	if _, ok := toolerr.From(err); !ok {
		if e, ok := a.handlerArgumentsError(name, d, rawArguments(req), err); ok {
			return failure(a.core.Rejected(ctx, call, e), d.structured, false)
		}
	}
	return failure(a.core.Failed(ctx, call, err), d.structured, false)
}

// failure is the outcome of a run that failed with f.
func failure(f *mcpcore.Failure, structured, panicked bool) handled {
	return handled{res: result(f, structured), cause: f.Err, panicked: panicked}
}

// panicked is the result of a panic of the handler of req: INTERNAL_ERROR,
// the value and the stack to the log only.
func (a *adapter) panicked(ctx context.Context, req *mcp.CallToolRequest, v any) *mcp.CallToolResult {
	d := a.def(ctx, req.Params.Name)
	return result(a.core.Panicked(ctx, a.call(req.Params.Name, d), v), d.structured)
}

// elicitation reports whether err asks the client for a URL elicitation
// (mcp.URLElicitationRequiredError, as a value or a pointer), which
// mcp-go answers with its own JSON-RPC error.
func elicitation(err error) bool {
	var value mcp.URLElicitationRequiredError
	var pointer *mcp.URLElicitationRequiredError
	return errors.As(err, &value) || (errors.As(err, &pointer) && pointer != nil)
}
