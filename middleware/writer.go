package middleware

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// recorder wraps the handler's ResponseWriter. A response below 400 passes
// through: every call goes straight to the underlying writer and the
// recorder only notes that the response has started. At 400 or more the
// status is held back and the body buffered up to the cap (the rest is
// dropped), so the middleware can replace the response.
//
// The recorder is also the request's context: it embeds the toolerr request
// scope (ids, intent and vendor recordings), answers the recorder key with
// itself and forwards everything else to the scope, so that the
// middleware's per-request state is one allocation.
//
// A recorder is used by one handler goroutine, like any ResponseWriter.
type recorder struct {
	reqscope.Scope
	w http.ResponseWriter
	m *handler // the middleware serving the request

	status    int         // the final status the handler chose; 0 until then
	jsonrpc   jsonrpcHint // what the request's headers say of JSON-RPC (jsonrpc.go)
	started   bool        // the status line went to w: the response is committed
	capturing bool        // a status >= 400 is held back and the body buffered
	hijacked  bool        // the handler took the connection over
	truncated bool        // bytes were written past the cap and dropped
	// detached: the middleware no longer acts on the response. It returned
	// with nothing sent, so a writer that runs after it (echo's
	// HTTPErrorHandler behind echo.WrapMiddleware, gin's error middleware)
	// reaches the client directly (handoff.go).
	detached bool
	// replaced: the middleware sent an error in place of the handler's
	// response; a later write would corrupt its body and is refused.
	replaced bool
	body     []byte

	tool  string       // the tool name a Tool adapter gave
	err   error        // the error a Tool handler returned
	next  http.Handler // the handler the middleware wraps
	allow string       // the Allow header a 405 keeps, validated
	fail  *failure     // the error path's state (failure.go); nil until then
	ids   *requestIDs  // the request's id and header values (ids.go)
	// reqBody is the request's body, watched when it may be JSON-RPC
	// (jsonrpc_body.go); nil when not.
	reqBody *bodyTee
}

// Value returns the recorder for the recorder key, else the value of the
// request context.
func (rw *recorder) Value(key any) any {
	if key == (recorderKey{}) {
		return rw
	}
	return rw.Scope.Value(key)
}

// Header returns the underlying writer's header map.
func (rw *recorder) Header() http.Header { return rw.w.Header() }

// WriteHeader passes informational and below-400 statuses through and holds
// back a status of 400 or more. Calls after the first final status are
// ignored, as net/http ignores them.
func (rw *recorder) WriteHeader(code int) {
	if rw.detached {
		// The middleware has returned: the status goes straight out, and
		// only a final one (not 103 Early Hints) commits the response.
		if !rw.started {
			rw.started = code < 100 || code > 199 || code == http.StatusSwitchingProtocols
			rw.w.WriteHeader(code)
		}
		return
	}
	if rw.started || rw.capturing || rw.hijacked {
		return
	}
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		rw.w.WriteHeader(code) // 103 Early Hints and the like: not final
		return
	}
	rw.status = code
	if code >= 400 {
		rw.capturing = true
		return
	}
	rw.keepRequestID()
	rw.w.WriteHeader(code) // net/http panics on a code below 100: nothing was sent then
	rw.started = true
}

// keepRequestID puts the request's own id back in X-Request-Id when the
// handler replaced it (a proxy copying a downstream's headers): the
// response carries one id, the one of its errors and log records. The
// common case, an unchanged header, costs a map lookup.
func (rw *recorder) keepRequestID() {
	h := rw.w.Header()
	id := "" // the request's id, as stamp set it
	if rw.ids != nil {
		id = rw.ids.vals[0]
	}
	if v := h["X-Request-Id"]; id != "" && (len(v) != 1 || v[0] != id) {
		h["X-Request-Id"] = []string{id}
	}
}

// Write sends p on, or buffers it while capturing. The first Write without
// a status sends 200, as net/http does.
func (rw *recorder) Write(p []byte) (int, error) {
	if rw.replaced {
		return 0, errReplaced
	}
	if !rw.started && !rw.capturing {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.capturing {
		if rw.sharesRendering(p) {
			rw.body = p[:len(p):len(p)] // a later write copies
			return len(p), nil
		}
		capture(rw, p)
		return len(p), nil
	}
	return rw.w.Write(p)
}

// WriteString is Write for strings, without a copy when the underlying
// writer has WriteString.
func (rw *recorder) WriteString(s string) (int, error) {
	if rw.replaced {
		return 0, errReplaced
	}
	if !rw.started && !rw.capturing {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.capturing {
		capture(rw, s)
		return len(s), nil
	}
	return io.WriteString(rw.w, s)
}

// ReadFrom keeps io.Copy's fast path (sendfile) when passing through and
// reads into the buffer, then drains, when capturing.
func (rw *recorder) ReadFrom(src io.Reader) (int64, error) {
	if rw.replaced {
		return 0, errReplaced
	}
	if !rw.started && !rw.capturing {
		rw.WriteHeader(http.StatusOK)
	}
	if rw.capturing {
		return rw.captureFrom(src)
	}
	if rf, ok := rw.w.(io.ReaderFrom); ok {
		return rf.ReadFrom(src)
	}
	return io.Copy(rw.w, src)
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.w }

// capture appends what fits under the cap to the buffer and counts the
// rest. The buffer is sized on the first write ([recorder.reserve]).
func capture[T string | []byte](rw *recorder, p T) {
	if rw.body == nil {
		rw.reserve(len(p))
	}
	room := max(rw.m.cfg.bodyCap-len(rw.body), 0)
	n := min(len(p), room)
	rw.body = append(rw.body, p[:n]...)
	rw.truncated = rw.truncated || n < len(p)
}

// minCapture is the capture buffer's capacity for a response that declares
// no length, unless its first write is longer.
const minCapture = 512

// reserve sizes the capture buffer once, on the first write of n bytes:
// the response's Content-Length when it declares one, else n, at least
// minCapture; never more than the cap. Only a body longer than it said, or
// one of unknown length past minCapture, grows it again.
func (rw *recorder) reserve(n int) {
	size := max(n, minCapture)
	if v := rw.w.Header()["Content-Length"]; len(v) == 1 {
		if cl, err := strconv.Atoi(v[0]); err == nil && cl > 0 && cl >= n {
			size = cl
		}
	}
	rw.body = make([]byte, 0, max(min(size, rw.m.cfg.bodyCap), 1))
}

// sharesRendering reports whether p is the body of the Tool's rendering
// (failure.go) arriving unchanged: the buffer can then be that body, not
// a copy of it.
func (rw *recorder) sharesRendering(p []byte) bool {
	if rw.body != nil || rw.fail == nil || rw.fail.rendered == nil || len(p) == 0 {
		return false
	}
	rd := rw.fail.rendered
	return len(p) == len(rd.body) && &p[0] == &rd.body[0] && len(p) <= rw.m.cfg.bodyCap
}

// captureFrom reads src into the buffer up to the cap, then drains the rest.
func (rw *recorder) captureFrom(src io.Reader) (int64, error) {
	var n int64
	if rw.body == nil {
		rw.reserve(0)
	}
	for len(rw.body) < rw.m.cfg.bodyCap {
		if len(rw.body) == cap(rw.body) {
			grown := make([]byte, len(rw.body), min(max(2*cap(rw.body), minCapture), rw.m.cfg.bodyCap))
			copy(grown, rw.body)
			rw.body = grown
		}
		m, err := src.Read(rw.body[len(rw.body):cap(rw.body)])
		rw.body = rw.body[:len(rw.body)+m]
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	m, err := io.Copy(io.Discard, src)
	rw.truncated = rw.truncated || m > 0
	return n + m, err
}

// flush sends the status and flushes, or does nothing while capturing: a
// held-back error response goes out whole when the handler returns.
func (rw *recorder) flush() error {
	if rw.capturing || rw.hijacked {
		return nil
	}
	if !rw.started {
		rw.WriteHeader(http.StatusOK)
	}
	switch f := rw.w.(type) {
	case interface{ FlushError() error }:
		return f.FlushError()
	case http.Flusher:
		f.Flush()
	}
	return nil
}

// hijack hands the connection to the handler; from then on the recorder
// writes nothing, and a held-back response is forgotten.
func (rw *recorder) hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := rw.w.(http.Hijacker).Hijack()
	if err == nil {
		rw.hijacked, rw.capturing, rw.body = true, false, nil
	}
	return c, brw, err
}

// The recorder is handed to the handler as one of four types, so that it
// implements http.Flusher and http.Hijacker exactly when the underlying
// writer does: code that asks "can I flush?" or "can I hijack?" gets the
// true answer. Each is a struct of one pointer, so storing it in an
// interface allocates nothing. Deadlines and full duplex are reached
// through Unwrap by http.ResponseController.

type flushWriter struct{ *recorder }

// Flush flushes the underlying writer.
func (f flushWriter) Flush() { _ = f.flush() }

// FlushError flushes the underlying writer and returns its error.
func (f flushWriter) FlushError() error { return f.flush() }

type hijackWriter struct{ *recorder }

// Hijack takes the connection over.
func (h hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) { return h.hijack() }

type flushHijackWriter struct{ *recorder }

// Flush flushes the underlying writer.
func (f flushHijackWriter) Flush() { _ = f.flush() }

// FlushError flushes the underlying writer and returns its error.
func (f flushHijackWriter) FlushError() error { return f.flush() }

// Hijack takes the connection over.
func (f flushHijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) { return f.hijack() }

// wrap returns rw as the type whose optional interfaces match w's.
func (rw *recorder) wrap() http.ResponseWriter {
	_, canFlush := rw.w.(http.Flusher)
	if !canFlush {
		_, canFlush = rw.w.(interface{ FlushError() error })
	}
	_, canHijack := rw.w.(http.Hijacker)
	switch {
	case canFlush && canHijack:
		return flushHijackWriter{rw}
	case canFlush:
		return flushWriter{rw}
	case canHijack:
		return hijackWriter{rw}
	}
	return rw
}
