package middleware

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flushOnly is a ResponseWriter that can flush but not hijack.
type flushOnly struct{ *httptest.ResponseRecorder }

// hijackOnly is a ResponseWriter that can hijack but not flush.
type hijackOnly struct {
	http.ResponseWriter
	hijacked bool
}

func (h *hijackOnly) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h.hijacked = true
	return nil, nil, nil
}

// bare is a ResponseWriter with no optional interface.
type bare struct{ http.ResponseWriter }

func TestWrapMatchesTheUnderlyingInterfaces(t *testing.T) {
	tests := []struct {
		name             string
		w                http.ResponseWriter
		flusher, hijaker bool
	}{
		{"recorder flushes", flushOnly{httptest.NewRecorder()}, true, false},
		{"hijack only", &hijackOnly{ResponseWriter: httptest.NewRecorder()}, false, true},
		{"bare", bare{httptest.NewRecorder()}, false, false},
		{"both", struct {
			http.ResponseWriter
			http.Flusher
			http.Hijacker
		}{httptest.NewRecorder(), httptest.NewRecorder(), &hijackOnly{}}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := (&recorder{w: tc.w}).wrap()
			_, f := w.(http.Flusher)
			_, h := w.(http.Hijacker)
			assert.Equal(t, tc.flusher, f, "Flusher")
			assert.Equal(t, tc.hijaker, h, "Hijacker")
			_, rf := w.(io.ReaderFrom)
			assert.True(t, rf, "ReaderFrom is always there")
			assert.True(t, tc.w == w.(interface{ Unwrap() http.ResponseWriter }).Unwrap(), "Unwrap returns the underlying writer")
		})
	}
}

func TestWrappingAllocatesNothing(t *testing.T) {
	rec := &recorder{w: flushOnly{httptest.NewRecorder()}}
	var sink http.ResponseWriter
	allocs := testing.AllocsPerRun(100, func() { sink = rec.wrap() })
	assert.Zero(t, allocs)
	_ = sink
}

func TestResponseControllerThroughTheMiddleware(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline: %v", err)
		}
		if err := rc.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetReadDeadline: %v", err)
		}
		if err := rc.EnableFullDuplex(); err != nil {
			t.Errorf("EnableFullDuplex: %v", err)
		}
		_, _ = io.WriteString(w, "streamed")
		if err := rc.Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
	})
	resp, body := do(t, "GET", serve(t, h), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "streamed", string(body))
}

func TestHijackThroughTheMiddleware(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		defer conn.Close()
		_, _ = brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
		_ = brw.Flush()
	})
	resp, body := do(t, "GET", serve(t, h), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "hijacked", string(body))
}

func TestReadFromPassesThrough(t *testing.T) {
	path := filepath.Join(t.TempDir(), "export.csv")
	content := strings.Repeat("id,amount\n", 10_000)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(path)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if _, ok := w.(io.ReaderFrom); !ok {
			t.Error("the wrapped writer lost ReaderFrom")
		}
		if _, err := io.Copy(w, f); err != nil {
			t.Error(err)
		}
	})
	resp, body := do(t, "GET", serve(t, h), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, content, string(body))
}

func TestInformationalStatusPassesThrough(t *testing.T) {
	w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", "</style.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.WriteHeader(http.StatusNotFound)
	})
	New(WithLogger(quiet))(h).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, []int{103, 404}, w.writeHeaders, "103 goes out; the 404 is replaced by the error")
}

func TestSuperfluousWriteHeaderIsIgnored(t *testing.T) {
	w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, "ok")
	})
	New(WithLogger(quiet))(h).ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, []int{200}, w.writeHeaders)
	assert.Equal(t, "ok", w.Body.String())
}
