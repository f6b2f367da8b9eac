package idempotency

import (
	"bufio"
	"net"
	"net/http"
)

// teeWriter passes a response through to the client and keeps a copy of
// its status and body, up to a limit, for the store. Flush passes through.
// A hijacked connection's response cannot be stored.
type teeWriter struct {
	w        http.ResponseWriter
	max      int
	status   int
	body     []byte
	overflow bool // the body was longer than max: not storable
	wrote    bool // anything was written
	hijacked bool
}

// Header returns the underlying header map.
func (t *teeWriter) Header() http.Header { return t.w.Header() }

// WriteHeader records and passes on the first final status.
func (t *teeWriter) WriteHeader(code int) {
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		t.w.WriteHeader(code)
		return
	}
	if t.status == 0 {
		t.status = code
	}
	t.wrote = true
	t.w.WriteHeader(code)
}

// Write keeps a copy of p while it fits, and passes it on.
func (t *teeWriter) Write(p []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	t.wrote = true
	if !t.overflow {
		if len(t.body)+len(p) > t.max {
			t.overflow, t.body = true, nil
		} else {
			t.body = append(t.body, p...)
		}
	}
	return t.w.Write(p)
}

// Flush flushes the underlying writer when it can.
func (t *teeWriter) Flush() {
	if f, ok := t.w.(http.Flusher); ok {
		if t.status == 0 {
			t.status = http.StatusOK
		}
		t.wrote = true
		f.Flush()
	}
}

// Hijack hands the connection over when the underlying writer can; the
// response is then the handler's and is not stored.
func (t *teeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := t.w.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	c, brw, err := h.Hijack()
	if err == nil {
		t.hijacked = true
	}
	return c, brw, err
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.w }

// finalStatus is the status the client got: 200 when the handler wrote
// nothing, as net/http sends.
func (t *teeWriter) finalStatus() int {
	if t.status == 0 {
		return http.StatusOK
	}
	return t.status
}
