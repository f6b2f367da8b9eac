package mcpcore

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// scopeKey is the context key under which a call's own context holds its
// [scope].
type scopeKey struct{}

// scope is what the core keeps of one call in the call's context.
type scope struct {
	key    any         // what the adapter identifies the call by
	header http.Header // the headers of the POST that carried it, or nil
	// parent is the scope of the same call an outer layer of the adapter
	// made (a server's middleware, then the tool's wrapper), or nil.
	parent *scope
	// counted: a layer of the adapter counts the call (ClaimCount).
	counted atomic.Bool
}

// CallContext returns the context a tool call runs under: a request scope
// of its own (reqscope.New) holding the call's ids
// ([Core.CallIDs]), so that the ids its error carries and what its
// handler records (toolerr.RecordIntent) belong to this call alone. MCP
// libraries run every call of a session under the context of the request
// that opened the session; this scope hides whatever that request left
// there. key identifies the call (a request pointer); a context already
// made for the same non-nil key is returned as it is. header holds the
// headers of the HTTP request that carried the call, nil over stdio or in
// memory.
func (c *Core) CallContext(ctx context.Context, key any, header http.Header) context.Context {
	if c.inCall(ctx, key) {
		return ctx
	}
	id, trace := c.CallIDs(ctx, header)
	parent, _ := ctx.Value(scopeKey{}).(*scope)
	sc := &reqscope.Scope{}
	sc.Init(ctx, id, trace)
	sc.SetHooks(&c.hooks)
	return context.WithValue(sc, scopeKey{}, &scope{key: key, header: header, parent: parent})
}

// inCall reports whether ctx is the context [Core.CallContext] made for
// the call key (a non-nil key): an adapter that sees the call a second
// time (a server's middleware, then the tool's wrapper) knows the call is
// counted already.
func (c *Core) inCall(ctx context.Context, key any) bool {
	s, ok := ctx.Value(scopeKey{}).(*scope)
	return ok && key != nil && s.key == key
}

// ClaimCount reports whether the layer of an adapter that calls it, with
// the context [Core.CallContext] made, is the one to count the call in
// toolerr.tool.calls ([Core.CountCall]): the outermost layer to ask,
// so a call that passes a server's middleware and the tool's wrapper
// counts once.
func (c *Core) ClaimCount(ctx context.Context) bool {
	s, _ := ctx.Value(scopeKey{}).(*scope)
	if s == nil {
		return false
	}
	for p := s; p != nil; p = p.parent {
		if p.counted.Load() {
			return false
		}
	}
	return s.counted.CompareAndSwap(false, true)
}

// CallIDs returns the request id and trace id of a call, first of:
//
//   - for a call over streamable HTTP (header holds the headers of the
//     POST that carried it) whose context holds a request scope, as a
//     toolerr middleware's does: the ids that middleware wrote on the POST
//     (reqscope.HeaderRequestID, the POST's X-Request-Id, and
//     reqscope.HeaderTraceID), each validated since a header can be forged
//     where no middleware ran;
//   - for any other call whose context holds a request scope that does
//     not come from an HTTP request (stdio or in memory, with the scope a
//     receiving middleware made for the call): that scope's ids;
//   - otherwise a new request id and no trace id. So a call over the SSE
//     transport, which multiplexes every call on the stream of one GET,
//     never carries the GET's ids, and no call of a stateful session
//     carries those of the request that opened it.
func (c *Core) CallIDs(ctx context.Context, header http.Header) (id, trace string) {
	switch {
	case toolerr.RequestID(ctx) == "":
	case header != nil:
		id, trace = header.Get(reqscope.HeaderRequestID), header.Get(reqscope.HeaderTraceID)
	case ctx.Value(http.ServerContextKey) == nil:
		id, trace = toolerr.RequestID(ctx), toolerr.TraceID(ctx)
	}
	if !toolerr.ValidRequestID(id) || c.Sanitizer.CleanText(id) != id {
		id = reqscope.NewRequestID()
	}
	if !toolerr.ValidTraceID(trace) {
		trace = ""
	}
	return id, trace
}

// callHeader returns the headers of the HTTP request that carried the call
// of ctx, or nil.
func callHeader(ctx context.Context) http.Header {
	if s, ok := ctx.Value(scopeKey{}).(*scope); ok {
		return s.header
	}
	return nil
}
