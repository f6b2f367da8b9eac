package middleware

import (
	"context"
	"errors"
)

// The hand-off: how code that is not a [Tool] adapter (a framework
// adapter, a handler written in a framework's idiom) gives the middleware
// an error to render, and names the tool, without writing anything. The
// middleware renders the error once, on the way out, exactly as it renders
// a Tool's returned error; there is no second rendering path.

// errReplaced is what a write gets once the middleware has sent an error
// in place of the handler's response: appended to that error's body, the
// bytes would corrupt it.
var errReplaced = errors.New("toolerr: the response was replaced by an error; write dropped")

// ReportError hands err to the toolerr middleware serving the request of
// ctx, to be rendered when the handler returns, in place of anything the
// handler wrote with a status of 400 or more, just as a [Tool] handler's
// returned error is:
//
//   - a *toolerr.Error anywhere in err's chain is used as is, its text
//     sanitized;
//   - a Go error the classifier knows is classified;
//   - anything else is INTERNAL_ERROR, its text for the log only.
//
// A status written before the report is not evidence of a downstream: the
// error decides the response's status. If a response below 400 was sent
// already, the error is logged and counted, and the response is left as it
// is. A later report replaces an earlier one.
//
// ReportError reports false, and does nothing, when no toolerr middleware
// serves the request, when the middleware has already returned, or when
// the request speaks an RPC protocol (Connect, gRPC, gRPC-Web), whose
// errors stay in that protocol. The error of a JSON-RPC request is
// rendered as a JSON-RPC error object. It must be called from the goroutine
// serving the request, before the handler returns, like any call on the
// request's ResponseWriter.
func ReportError(ctx context.Context, err error) bool {
	rec := recorderFrom(ctx)
	if rec == nil || err == nil || rec.detached {
		return false
	}
	rec.err = err
	return true
}

// NameTool names the tool of the request of ctx, for framework adapters
// that know it (a route's pattern, an operation id): every error of the
// request carries the name, as a [Tool] adapter's name. It reports false
// when no toolerr middleware serves the request or name is empty. A Tool
// adapter that runs later names the tool again.
func NameTool(ctx context.Context, name string) bool {
	rec := recorderFrom(ctx)
	if rec == nil || name == "" || rec.detached {
		return false
	}
	rec.tool = name
	return true
}

// detach ends the middleware's part in the response once it has returned:
// a response it left unsent stays uncommitted, and any write after this
// (an outer error handler's) goes straight to the client, as it would
// without the middleware. A response the middleware replaced refuses
// later writes instead (errReplaced).
func (rw *recorder) detach() {
	if !rw.started && !rw.hijacked {
		rw.detached, rw.capturing, rw.body = true, false, nil
	}
}
