package middleware

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/internal/textcut"
)

// The JSON-RPC 2.0 error codes the middleware answers with.
const (
	jsonrpcParseError     = -32700 // the body is not JSON
	jsonrpcInvalidRequest = -32600 // the request was refused as sent
	jsonrpcInvalidParams  = -32602 // its parameters were refused (422)
	jsonrpcInternalError  = -32603 // the server failed, a panic included
)

// jsonrpcCode returns the code of the JSON-RPC error that answers a
// request with an error of HTTP status status: a panic and any 5xx are
// -32603; a 4xx is -32700 when the body is not JSON, -32602 for a 422
// (the parameters were read and refused), else -32600. The toolerr
// problem object in the error's data says which 4xx it is.
func jsonrpcCode(status int, call *jsonrpcCall, panicked bool) int {
	switch {
	case panicked || status >= 500:
		return jsonrpcInternalError
	case call.parseError:
		return jsonrpcParseError
	case status == http.StatusUnprocessableEntity:
		return jsonrpcInvalidParams
	}
	return jsonrpcInvalidRequest
}

// bufferedResponse is a response toolerr.Write renders into: headers,
// status and body kept.
type bufferedResponse struct {
	header http.Header
	status int
	body   []byte
}

// Header returns the headers Write sets.
func (b *bufferedResponse) Header() http.Header { return b.header }

// WriteHeader keeps the status.
func (b *bufferedResponse) WriteHeader(status int) { b.status = status }

// Write keeps a copy of p.
func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.body = append(b.body, p...)
	return len(p), nil
}

// sendJSONRPC answers the JSON-RPC request r with e, which
// [handler.annotate] completed: the response is a JSON-RPC error object
//
//	{"jsonrpc":"2.0","id":<the request's id, or null>,"error":{"code":…,"message":…,"data":<the problem object>}}
//
// with the status of e (a panic's is 500: the server failed, so that
// proxies, load balancers and the SDKs' retry logic see the failure as
// such, as they see the SDKs' own 4xx JSON-RPC errors), and Content-Type
// application/json. The message is the error's detail, and data the
// toolerr problem object, with the request's ids; toolerr.Write renders it
// and sanitizes e once, as for HTTP.
//
// The one exception is MCP's "session gone": a 404 to a request that
// carries an Mcp-Session-Id (MCP's streamable HTTP, §2.5.3). MCP clients
// start a new session on it, and the official Go SDK only when its body is
// not a JSON-RPC error; it gets toolerr's text rendering (text/plain), so
// the client does what it would do without the middleware.
func (m *handler) sendJSONRPC(rec *recorder, r *http.Request, call *jsonrpcCall, e *toolerr.Error, p *panicInfo) {
	sessionGone := e.Status == http.StatusNotFound && canonheader.Value(r.Header, "Mcp-Session-Id") != ""
	// The problem object is rendered for a request that asks for nothing:
	// the request's own Accept (text/markdown, an envelope) does not apply
	// inside the JSON-RPC error.
	wr := r.WithContext(r.Context())
	wr.Header = nil
	if sessionGone {
		wr.Header = http.Header{"Accept": {toolerr.ContentTypePlain}}
	}
	out := &bufferedResponse{header: make(http.Header, 8)}
	bp := renderBuffers.Get().(*[]byte)
	out.body = (*bp)[:0]
	before := reqscope.Written[*toolerr.Error](rec)
	toolerr.Write(out, wr, e, m.problemOpts...)
	written := reqscope.Written[*toolerr.Error](rec)
	if written == nil || written == before {
		written = m.sanitized(e) // not reached: r's scope is the recorder's
	}
	status := out.status
	h := rec.w.Header()
	allow := jsonrpcHeaders(h, status)
	for k, v := range out.header {
		h[k] = v
	}
	if allow != "" {
		h["Allow"] = []string{allow}
	}
	body := out.body
	if !sessionGone {
		code := jsonrpcCode(status, call, p != nil)
		body = appendJSONRPCError(make([]byte, 0, len(out.body)+256), call.id, int64(code), jsonrpcMessage(written), out.body)
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	rec.capturing, rec.body, rec.started, rec.replaced = false, nil, true, true
	rec.w.WriteHeader(status)
	_, _ = rec.w.Write(body) // a failed write means the client went away
	if cap(out.body) <= 64<<10 {
		*bp = out.body[:0]
		renderBuffers.Put(bp)
	}
	m.tel.record(rec, r, written, status, p)
}

// jsonrpcHeaders clears the headers of a replaced response for a JSON-RPC
// error answer of status status, and returns the Allow value to set. It
// keeps what every error answer keeps ([keptHeader]) and the transport's
// own signals, which the client acts on: WWW-Authenticate of a 401 or 403
// (MCP's authorization discovery starts there), a valid Allow of a 405
// (returned, to be set again), and a Retry-After of a 429 or 503 that is a
// number of seconds or an HTTP date.
func jsonrpcHeaders(h http.Header, status int) (allow string) {
	if status == http.StatusMethodNotAllowed {
		if methods := allowedMethods(h); len(methods) > 0 {
			allow = strings.Join(methods, ", ")
		}
	}
	for k := range h {
		switch {
		case keptHeader(k):
		case k == "Www-Authenticate" && (status == http.StatusUnauthorized || status == http.StatusForbidden):
		case k == "Retry-After" && (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) &&
			validRetryAfter(h[k]):
		default:
			delete(h, k)
		}
	}
	return allow
}

// validRetryAfter reports whether v is one Retry-After value: a number of
// seconds, or an HTTP date.
func validRetryAfter(v []string) bool {
	if len(v) != 1 || len(v[0]) > 64 {
		return false
	}
	if _, err := strconv.ParseUint(v[0], 10, 32); err == nil {
		return true
	}
	_, err := http.ParseTime(v[0])
	return err == nil
}

// jsonrpcMessage returns the message of the JSON-RPC error of e, which is
// sanitized: its detail, else its title, at most toolerr.MaxDetailLen
// bytes, cut at a rune boundary.
func jsonrpcMessage(e *toolerr.Error) string {
	msg := e.Detail
	if msg == "" {
		msg = e.Title
	}
	if msg == "" {
		msg = e.Code
	}
	return textcut.AtRune(msg, toolerr.MaxDetailLen)
}

// appendJSONRPCError appends the JSON-RPC error response of id (nil for
// null), code, message and data (one JSON value, or nothing) to dst.
func appendJSONRPCError(dst, id []byte, code int64, message string, data []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, id...)
	}
	dst = append(dst, `,"error":{"code":`...)
	dst = strconv.AppendInt(dst, code, 10)
	dst = append(dst, `,"message":`...)
	msg, _ := json.Marshal(message) // a string always encodes
	dst = append(dst, msg...)
	if len(data) > 0 {
		dst = append(dst, `,"data":`...)
		dst = append(dst, data...)
	}
	return append(dst, "}}"...)
}
