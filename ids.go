package toolerr

import (
	"context"
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

// WithRequestID returns a context carrying the request id that errors
// rendered for this request will carry. It keeps the trace id and the
// recordings ([RecordIntent], [RecordVendor]) of ctx's request scope.
func WithRequestID(ctx context.Context, id string) context.Context {
	s := newScope(ctx, id, "")
	if p := scopeOf(ctx); p != nil {
		s.traceID, s.rec = p.traceID, p.rec
	}
	return s
}

// RequestID returns the request id of ctx's request scope, or "".
func RequestID(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.requestID
	}
	return ""
}

// WithTraceID returns a context carrying a W3C trace id for errors rendered
// for this request. It keeps the request id and the recordings of ctx's
// request scope. The middleware stores the current span's id here.
func WithTraceID(ctx context.Context, id string) context.Context {
	s := newScope(ctx, "", id)
	if p := scopeOf(ctx); p != nil {
		s.requestID, s.rec = p.requestID, p.rec
	}
	return s
}

// TraceID returns the trace id of ctx's request scope, or "".
func TraceID(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.traceID
	}
	return ""
}

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

// ValidRequestID reports whether id may be echoed as a request id: 1 to 128
// bytes of ASCII letters, digits and . _ : / -. Anything else (CR/LF,
// quotes, spaces, non-ASCII) must be replaced, never echoed. The slash is
// allowed because chi's RequestID middleware makes ids such as
// "host/AbCd012345-000001", and a service's logs and its errors should
// carry the same id.
func ValidRequestID(id string) bool {
	if id == "" || len(id) > MaxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !requestIDByte[id[i]] {
			return false
		}
	}
	return true
}

// requestIDByte marks the bytes a request id may hold: ASCII letters,
// digits and . _ : / -. A table, since every error checks its ids on
// the way out.
var requestIDByte = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		c := byte(b)
		t[b] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == ':' || c == '/' || c == '-'
	}
	return t
}()

// ValidTraceID reports whether id is a W3C trace id: 32 lower-case hex
// digits, not all zero.
func ValidTraceID(id string) bool {
	if len(id) != 32 {
		return false
	}
	nonZero := false
	for i := 0; i < len(id); i++ {
		b := id[i]
		if (b < '0' || b > '9') && (b < 'a' || b > 'f') {
			return false
		}
		nonZero = nonZero || b != '0'
	}
	return nonZero
}
