package mcptool

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr"
)

// callKey is the context key under which a call's own context holds the
// request it was made for.
type callKey struct{}

// callContext returns the context the tool call req runs under: a request
// scope of its own (toolerr.NewRequestContext) holding the call's ids
// (callIDs), so that the ids its error carries and what its handler
// records (toolerr.RecordIntent) belong to this call alone. The SDK runs
// every call of a session under the context of the request that opened
// the session; this scope hides whatever that request left there. A
// context already made for req ([Middleware]'s, for [Wrap]) is returned as
// it is.
func (c *config) callContext(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req != nil && ctx.Value(callKey{}) == req {
		return ctx
	}
	id, trace := c.callIDs(ctx, req)
	return context.WithValue(toolerr.NewRequestContext(ctx, id, trace), callKey{}, req)
}

// callIDs returns the request id and trace id of the call req, first of:
//
//   - for a call over streamable HTTP (req.Extra.Header holds the headers
//     of the POST that carried it) whose context holds a request scope,
//     as a toolerr middleware's does: the ids that middleware wrote on the
//     POST (toolerr.HeaderRequestID, the POST's X-Request-Id, and
//     toolerr.HeaderTraceID), each validated since a header can be
//     forged where no middleware ran;
//   - for any other call whose context holds a request scope that does
//     not come from an HTTP request (stdio or in memory, with the scope a
//     receiving middleware made for the call): that scope's ids;
//   - otherwise a new request id and no trace id. So a call over the SSE
//     transport, which multiplexes every call on the stream of one GET,
//     never carries the GET's ids, and no call of a stateful session
//     carries those of the request that opened it.
func (c *config) callIDs(ctx context.Context, req *mcp.CallToolRequest) (id, trace string) {
	switch {
	case toolerr.RequestID(ctx) == "":
	case req != nil && req.Extra != nil && req.Extra.Header != nil:
		h := req.Extra.Header
		id, trace = h.Get(toolerr.HeaderRequestID), h.Get(toolerr.HeaderTraceID)
	case ctx.Value(http.ServerContextKey) == nil:
		id, trace = toolerr.RequestID(ctx), toolerr.TraceID(ctx)
	}
	if !toolerr.ValidRequestID(id) || c.sanitizer.CleanText(id) != id {
		id = toolerr.NewRequestID()
	}
	if !toolerr.ValidTraceID(trace) {
		trace = ""
	}
	return id, trace
}
