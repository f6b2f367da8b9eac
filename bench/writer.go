package bench

import (
	"bufio"
	"io"
	"net"
	"net/http"
)

// Writer is a reusable ResponseWriter with the optional interfaces of
// net/http's own (Flusher, Hijacker, ReaderFrom, StringWriter), as in
// middleware/bench_test.go, so the timed loop measures the contenders, not
// a recorder's allocations.
type Writer struct {
	H      http.Header
	Status int
	N      int
}

// NewWriter returns an empty Writer.
func NewWriter() *Writer { return &Writer{H: make(http.Header, 8)} }

// Header returns the response header.
func (w *Writer) Header() http.Header { return w.H }

// WriteHeader records the status.
func (w *Writer) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
}

// Write counts b.
func (w *Writer) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	w.N += len(b)
	return len(b), nil
}

// WriteString counts s.
func (w *Writer) WriteString(s string) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	w.N += len(s)
	return len(s), nil
}

// Flush does nothing.
func (w *Writer) Flush() {}

// Hijack is not supported.
func (w *Writer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, http.ErrNotSupported
}

// ReadFrom discards r.
func (w *Writer) ReadFrom(r io.Reader) (int64, error) {
	n, err := io.Copy(io.Discard, r)
	w.N += int(n)
	return n, err
}

// Reset clears the writer between calls without reallocating.
func (w *Writer) Reset() {
	clear(w.H)
	w.Status, w.N = 0, 0
}
