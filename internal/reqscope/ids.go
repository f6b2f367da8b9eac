package reqscope

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
)

// The request headers through which the middleware tells the code it
// serves the ids of the request, for code that reads the request's headers
// but not its context. Package mcptool is such code: an MCP server runs
// every tool call of a session under the context of the request that
// opened the session, and gives the tool handler the headers of the POST
// that carried the call. The middleware sets HeaderRequestID to the
// request id, the one of the response's X-Request-Id, and HeaderTraceID to
// the trace id, or removes it when there is none: a client's values never
// pass. The middleware never sends them in a response.
const (
	// HeaderRequestID carries the request id.
	HeaderRequestID = "Toolerr-Request-Id"
	// HeaderTraceID carries the W3C trace id, when the request has one.
	HeaderTraceID = "Toolerr-Trace-Id"
	// HeaderTraceparent carries the W3C traceparent of the request's
	// server span, on requests that may carry JSON-RPC (MCP's streamable
	// HTTP), so that the span an MCP adapter records a failed call on is
	// a child of the span of the POST that carried the call.
	HeaderTraceparent = "Toolerr-Traceparent"
)

// NewRequestID returns 16 random bytes in lower-case hex. The bytes come
// from the runtime's ChaCha8 generator (math/rand/v2), which the runtime
// seeds from the operating system: a request id must be unique, not secret,
// and this costs a third of crypto/rand on the middleware's hot path.
func NewRequestID() string {
	var b [RequestIDLen]byte
	return string(AppendRequestID(b[:0]))
}

// RequestIDLen is the length of the ids [NewRequestID] makes.
const RequestIDLen = 32

// AppendRequestID appends a new request id, as [NewRequestID] makes one,
// to dst and returns the extended slice: for callers that keep the id in
// memory of their own instead of a string allocated for it.
func AppendRequestID(dst []byte) []byte {
	var raw [RequestIDLen / 2]byte
	binary.LittleEndian.PutUint64(raw[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(raw[8:], rand.Uint64())
	return hex.AppendEncode(dst, raw[:])
}
