package middleware

import (
	"net/http"
	"slices"
	"sync"

	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/translate"
)

// failure is what the middleware keeps about a request whose error it
// records: allocated on the error path only, so a response that passes
// through pays nothing for it.
type failure struct {
	span      trace.Span // the span the error is recorded on
	ownSpan   bool       // span is a "toolerr.error" span the middleware started
	spanTrace string     // the trace id of an own span that records; else ""

	rendered *rendering // a Tool's error as it rendered it, or nil; points to own
	own      rendering  // in the same allocation

	raw translate.Raw // the captured response as the translators read it

	routes func() []string // the routes a framework adapter reported (toolroutes.go)

	// counted: the request's error was counted (telemetry.record), with
	// tool, its tool name, which the request's call is counted under.
	counted bool
	tool    string

	rpcState   uint8       // rpcUnknown, rpcNot or rpcIs (jsonrpc.go)
	rpcScanned bool        // the body was read into rpc
	rpc        jsonrpcCall // the request as a JSON-RPC call, when rpcIs
}

// failures recycles failure states: serve returns the request's to it when
// the request is done (releaseFailure), so that an error costs no
// allocation for it.
var failures = sync.Pool{New: func() any { return new(failure) }}

// failure returns the request's failure state, taking it on first use.
func (rw *recorder) failure() *failure {
	if rw.fail == nil {
		rw.fail = failures.Get().(*failure)
	}
	return rw.fail
}

// endSpan ends the span the middleware started for the request's error,
// if it did.
func (rw *recorder) endSpan() {
	if f := rw.fail; f != nil && f.ownSpan {
		f.span.End()
	}
}

// releaseFailure gives the request's failure state back to failures, once
// the response is sent and the span ended. Nothing of it is used after:
// the recorder forgets it, and every pointer in it is cleared. A rendering
// buffer that replay did not release is left to the collector.
func (rw *recorder) releaseFailure() {
	f := rw.fail
	if f == nil {
		return
	}
	rw.fail = nil
	*f = failure{}
	failures.Put(f)
}

// renderBuffers holds the buffers renderings are kept in: a rendering
// lives from the Tool's return to the end of the request, and every writer
// it passes through copies what it keeps (io.Writer's contract).
var renderBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// release returns rd's buffer to renderBuffers; rd's body, and the
// recorder's capture of it, must not be used after.
func (rd *rendering) release() {
	if rd.buf != nil && cap(rd.body) <= 64<<10 {
		*rd.buf = rd.body[:0]
		renderBuffers.Put(rd.buf)
	}
	rd.buf, rd.body = nil, nil
}

// renderedHeaders are the headers toolerr.Write sets.
var renderedHeaders = [...]string{
	"Content-Type", "Content-Length", "X-Request-Id", "Cache-Control", "X-Content-Type-Options", "Retry-After",
}

// renderedHeader reports whether k is one of renderedHeaders.
func renderedHeader(k string) bool { return slices.Contains(renderedHeaders[:], k) }

// rendering is a Tool's error as the Tool adapter rendered it: the error
// built, completed and sanitized once (as toolerr.Write recorded it), its
// status, headers and body. The adapter sends it down the chain, so
// middleware between [New] and the Tool (idempotency) sees the response;
// the middleware then sends the same rendering to the client without
// building, sanitizing or rendering the error again.
//
// It is a ResponseWriter while toolerr.Write renders into it: headers go to
// the chain's writer, the status and body are kept.
type rendering struct {
	w       http.ResponseWriter // the chain's writer, whose headers Write sets
	err     *toolerr.Error      // what Write rendered: sanitized, with the request's ids
	written *toolerr.Error      // reqscope.Written of the recorder right after
	status  int
	body    []byte
	buf     *[]byte // body's buffer, from renderBuffers
	header  [len(renderedHeaders)][]string
}

// Header returns the chain's header map.
func (rd *rendering) Header() http.Header { return rd.w.Header() }

// WriteHeader keeps the status.
func (rd *rendering) WriteHeader(status int) { rd.status = status }

// Write keeps a copy of the body (toolerr.Write reuses its buffer).
func (rd *rendering) Write(p []byte) (int, error) {
	rd.body = append(rd.body, p...)
	return len(p), nil
}

// render renders e for r into a new rendering, sanitizing it exactly once:
// toolerr.Write passes every string through the text filter of the
// request's scope, which is the recorder's, the middleware's sanitizer. When
// a middleware between New and the Tool gave the request a scope of its
// own (reqscope.New), the recorder's scope saw no rendering:
// e is then sanitized here and rendered again, so no text reaches the body
// unsanitized whatever that scope's filter is.
func (m *handler) render(rec *recorder, w http.ResponseWriter, r *http.Request, e *toolerr.Error) *rendering {
	f := rec.failure()
	rd := &f.own
	rd.w, rd.buf = w, renderBuffers.Get().(*[]byte)
	rd.body = (*rd.buf)[:0]
	before := reqscope.Written[*toolerr.Error](rec)
	toolerr.Write(rd, r, e, m.writeOpts...)
	rd.written = reqscope.Written[*toolerr.Error](rec)
	rd.err = rd.written
	if rd.written == before || rd.written == nil {
		if e.Instance == "" && r.URL != nil {
			e = e.WithInstance(r.URL.EscapedPath()) // as Write would, but sanitized
		}
		rd.err = m.sanitized(e)
		rd.status, rd.body = 0, rd.body[:0]
		toolerr.Write(rd, r, rd.err, m.writeOpts...)
	}
	h := w.Header()
	for i, k := range renderedHeaders {
		rd.header[i] = h[k]
	}
	return rd
}

// current reports whether rd is still the response the recorder holds back:
// the status it sent down the chain is the one that reached the recorder,
// and nothing rendered another error for the request since.
func (rd *rendering) current(rec *recorder) bool {
	return rd.status == rec.status && reqscope.Written[*toolerr.Error](rec) == rd.written
}

// replay records a Tool's rendered error and sends it in place of what the
// chain held back, with the headers toolerr.Write set, as [handler.respond]
// would have rendered it.
func (m *handler) replay(rec *recorder, r *http.Request, rd *rendering) {
	if call := m.jsonrpcCallOf(rec, r, true); call != nil {
		// A JSON-RPC request's answer is JSON-RPC: the rendering's error,
		// as a JSON-RPC error object.
		m.sendJSONRPC(rec, r, call, rd.err, nil)
		rd.release()
		return
	}
	m.tel.record(rec, r, rd.err, rd.status, nil)
	// As clearHeader, but the headers Write set are assigned in place
	// rather than deleted and added again.
	h := rec.w.Header()
	for k := range h {
		if !keptHeader(k) && !renderedHeader(k) {
			delete(h, k)
		}
	}
	for i, k := range renderedHeaders {
		if v := rd.header[i]; v != nil {
			h[k] = v
		} else if !keptHeader(k) {
			delete(h, k)
		}
	}
	if rec.allow != "" && rd.err.Code == toolerr.CodeMethodNotAllowed {
		h["Allow"] = []string{rec.allow}
	}
	rec.capturing, rec.body, rec.started, rec.replaced = false, nil, true, true
	rec.w.WriteHeader(rd.status)
	_, _ = rec.w.Write(rd.body) // a failed write means the client went away
	rd.release()
}
