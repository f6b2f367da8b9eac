package idempotency

import (
	"bufio"
	"net"
	"net/http"
)

// maxErrorBody bounds the copy [ThrashGuard] keeps of an error response's
// body, to read the error it renders; a toolerr error is far smaller.
const maxErrorBody = 64 << 10

// statusWriter passes a response through and notes its status, and a copy
// of its body when the status is 400 or more (up to maxErrorBody; a
// longer one is dropped). A success costs nothing more than the wrapper.
type statusWriter struct {
	w        http.ResponseWriter
	status   int
	body     []byte
	overflow bool
	hijacked bool
}

// Header returns the underlying header map.
func (s *statusWriter) Header() http.Header { return s.w.Header() }

// WriteHeader notes and passes on the first final status.
func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 && (code < 100 || code > 199 || code == http.StatusSwitchingProtocols) {
		s.status = code
	}
	s.w.WriteHeader(code)
}

// Write keeps a copy of an error body while it fits, and passes p on.
func (s *statusWriter) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if s.status >= 400 && !s.overflow {
		if len(s.body)+len(p) > maxErrorBody {
			s.overflow, s.body = true, nil
		} else {
			s.body = append(s.body, p...)
		}
	}
	return s.w.Write(p)
}

// Flush flushes the underlying writer when it can.
func (s *statusWriter) Flush() {
	if f, ok := s.w.(http.Flusher); ok {
		if s.status == 0 {
			s.status = http.StatusOK
		}
		f.Flush()
	}
}

// Hijack hands the connection over when the underlying writer can; the
// call's outcome is then unknown and counts for nothing.
func (s *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := s.w.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	c, brw, err := h.Hijack()
	if err == nil {
		s.hijacked = true
	}
	return c, brw, err
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.w }
