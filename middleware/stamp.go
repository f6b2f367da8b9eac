package middleware

import (
	"encoding/hex"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// stamp writes the request's ids into r, the request the middleware
// passes on: [reqscope.HeaderRequestID] is set to reqID and
// [reqscope.HeaderTraceID] to traceID, or removed when traceID is "", so
// that a client's values never pass. Code behind the middleware that sees
// the request's headers but not its context reads them there: package
// mcptool does, since an MCP server runs each tool call under the context
// of the session's first request but hands the tool handler the headers
// of the POST that carried the call. Every other header stays as the
// client sent it.
//
// r.Header is the map the server gave the middleware (r shares it with
// the request it was made from); it is created when nil. stamp returns
// the response's X-Request-Id value. The three header values are slices of
// ids, which the caller allocates with the request's id (requestIDs), so
// that stamping allocates nothing.
func stamp(r *http.Request, reqID, traceID string, ids *[3]string) []string {
	*ids = [3]string{reqID, reqID, traceID}
	if r.Header == nil {
		r.Header = make(http.Header, 2)
	}
	r.Header[reqscope.HeaderRequestID] = ids[1:2:2] // canonical already: skip Set's check
	// The request's X-Request-Id is the request's id too, so that a
	// request-id middleware behind this one (chi's, echo's, gin-contrib's)
	// and a handler that forwards the header use the id the client sees.
	// It shares the value: capped, so an Add to either copies.
	r.Header["X-Request-Id"] = ids[1:2:2]
	if traceID != "" {
		r.Header[reqscope.HeaderTraceID] = ids[2:3:3]
	} else {
		delete(r.Header, reqscope.HeaderTraceID)
	}
	return ids[0:1:1]
}

// stampSpan sets [reqscope.HeaderTraceparent] on r to the W3C traceparent
// of the span in r's context when r may carry JSON-RPC and the span is
// valid, and removes it otherwise, so that a client's value never passes.
// An MCP library runs a stateful session's calls under the context of the
// request that opened the session; the adapters read the span of the POST
// that carried a call here. Other requests pay one map lookup.
func stampSpan(r *http.Request, jsonrpc bool) {
	if !jsonrpc {
		delete(r.Header, reqscope.HeaderTraceparent)
		return
	}
	sc := trace.SpanContextFromContext(r.Context())
	if !sc.IsValid() {
		delete(r.Header, reqscope.HeaderTraceparent)
		return
	}
	tid, sid := sc.TraceID(), sc.SpanID()
	b := make([]byte, 0, 55)
	b = append(b, "00-"...)
	b = hex.AppendEncode(b, tid[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, sid[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, []byte{byte(sc.TraceFlags())})
	r.Header[reqscope.HeaderTraceparent] = []string{string(b)}
}
