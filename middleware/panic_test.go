package middleware

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// countingWriter is a ResponseWriter that counts WriteHeader calls.
type countingWriter struct {
	*httptest.ResponseRecorder
	writeHeaders []int
}

func (c *countingWriter) WriteHeader(code int) {
	c.writeHeaders = append(c.writeHeaders, code)
	c.ResponseRecorder.WriteHeader(code)
}

// serveRecovering runs h behind New and returns what escaped as a panic.
func serveRecovering(h http.Handler, w http.ResponseWriter, opts ...Option) (escaped any) {
	defer func() { escaped = recover() }()
	opts = append([]Option{WithLogger(quiet)}, opts...)
	New(opts...)(h).ServeHTTP(w, httptest.NewRequest("POST", "/tools/export", nil))
	return nil
}

func TestPanicBeforeWriteIsInternalError(t *testing.T) {
	type custom struct{ Table string }
	var nilMap map[string]int
	tests := []struct {
		name      string
		panicWith func()
		inLog     string
	}{
		{"error value with a secret", func() { panic(errors.New("dial db: password=hunter2secret failed")) }, "dial db"},
		{"string value", func() { panic("index out of range in exporter") }, "index out of range in exporter"},
		{"non-error value", func() { panic(custom{Table: "orders"}) }, "orders"},
		{"runtime error", func() { nilMap["x"] = 1 }, "assignment to entry in nil map"},
		{"panic(nil)", func() { panic(nil) }, "nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := newLogger()
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.panicWith() })
			rec := httptest.NewRecorder()
			escaped := serveRecovering(h, rec, WithLogger(logger))
			require.Nil(t, escaped, "the panic is recovered")
			assert.Equal(t, 500, rec.Code)
			m := problem(t, rec.Body.Bytes())
			assert.Equal(t, toolerr.CodeInternal, m["code"])
			assert.NotContains(t, rec.Body.String(), "hunter2secret")
			assert.NotContains(t, rec.Body.String(), "goroutine")
			assert.NotContains(t, rec.Body.String(), ".go:")
			assert.NotContains(t, rec.Body.String(), tc.inLog, "the panic value is not in the body")

			recs := logs.failures()
			require.Len(t, recs, 1)
			assert.Contains(t, recs[0]["cause"], tc.inLog)
			assert.Contains(t, recs[0]["stack"], "panic_test.go", "the stack goes to the log")
			assert.NotContains(t, recs[0]["cause"], "hunter2secret", "secrets are redacted in the log")
			assert.Equal(t, m["request_id"], recs[0]["request_id"])
		})
	}
}

func TestPanicNilIsARuntimePanicNilError(t *testing.T) {
	logger, logs := newLogger()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(nil) })
	require.Nil(t, serveRecovering(h, httptest.NewRecorder(), WithLogger(logger)))
	recs := logs.failures()
	require.Len(t, recs, 1)
	assert.Contains(t, recs[0]["cause"], "panic called with nil argument")
}

func TestPanicAfterHeaderAbortsWithoutSecondWriteHeader(t *testing.T) {
	logger, logs := newLogger()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"rows":[`))
		panic("exporter crashed")
	})
	w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	escaped := serveRecovering(h, w, WithLogger(logger))
	assert.Equal(t, http.ErrAbortHandler, escaped, "the connection is aborted")
	assert.Equal(t, []int{200}, w.writeHeaders, "no second WriteHeader")
	assert.Equal(t, `{"rows":[`, w.Body.String(), "nothing is appended to the started body")
	recs := logs.failures()
	require.Len(t, recs, 1, "logged before aborting")
	assert.Equal(t, "200", recs[0]["status"])
	assert.Contains(t, recs[0]["cause"], "exporter crashed")
}

func TestPanicAfterPartialBodyAbortsTheConnection(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("row\n", 100)))
		w.(http.Flusher).Flush()
		panic("exporter crashed")
	})
	url := serve(t, h)
	resp, err := http.Get(url)
	require.NoError(t, err, "the status line was sent before the panic")
	defer resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	_, err = io.ReadAll(resp.Body)
	assert.Error(t, err, "the client sees a broken body, not a complete one")
}

func TestAbortHandlerIsRepanickedUntouched(t *testing.T) {
	logger, logs := newLogger()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })
	rec := httptest.NewRecorder()
	escaped := serveRecovering(h, rec, WithLogger(logger))
	assert.Same(t, http.ErrAbortHandler, escaped)
	assert.Empty(t, rec.Body.String())
	assert.Empty(t, logs.failures(), "an abort is not an error to report")
}

func TestPanicAfterErrorStatusIsInternalError(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><title>502</title>"))
		panic("renderer crashed")
	})
	w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	require.Nil(t, serveRecovering(h, w))
	assert.Equal(t, []int{500}, w.writeHeaders, "the held-back 502 was never sent")
	assert.Equal(t, toolerr.CodeInternal, problem(t, w.Body.Bytes())["code"])
}

func TestPanicOnHijackedConnectionIsLeftAlone(t *testing.T) {
	logger, logs := newLogger()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		defer conn.Close()
		_, _ = brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
		_ = brw.Flush()
		panic("after hijack")
	})
	url := serve(t, h, WithLogger(logger))
	resp, body := do(t, "GET", url, nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "hi", string(body), "the handler's own bytes, nothing of ours")
	require.Eventually(t, func() bool { return len(logs.failures()) == 1 }, testWait, testTick)
	assert.Equal(t, "0", logs.failures()[0]["status"])
}

func TestPanicOnUpgradedResponseIsLeftAlone(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusSwitchingProtocols)
		panic("after upgrade")
	})
	w := &countingWriter{ResponseRecorder: httptest.NewRecorder()}
	assert.Nil(t, serveRecovering(h, w), "not aborted, not re-panicked")
	assert.Equal(t, []int{101}, w.writeHeaders)
	assert.Empty(t, w.Body.String())
}

func TestInvalidStatusIsInternalError(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(42) })
	rec := httptest.NewRecorder()
	require.Nil(t, serveRecovering(h, rec), "net/http's panic on the code is recovered, not turned into an abort")
	assert.Equal(t, 500, rec.Code)
	assert.Equal(t, toolerr.CodeInternal, problem(t, rec.Body.Bytes())["code"])
}
