package middleware

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// How long tests wait for something the server does after the response.
const (
	testWait = 5 * time.Second
	testTick = 10 * time.Millisecond
)

// quiet discards log records of tests that do not look at them.
var quiet = slog.New(slog.DiscardHandler)

// logSink collects slog records for assertions. Safe for concurrent use.
type logSink struct {
	mu      sync.Mutex
	records []slog.Record
}

func (s *logSink) Enabled(context.Context, slog.Level) bool { return true }
func (s *logSink) Handle(_ context.Context, r slog.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records = append(s.records, r.Clone())
	return nil
}
func (s *logSink) WithAttrs([]slog.Attr) slog.Handler { return s }
func (s *logSink) WithGroup(string) slog.Handler      { return s }

// byMessage returns the records whose message is msg, each as a flat map of
// its attributes (groups as "group.key").
func (s *logSink) byMessage(msg string) []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]string
	for _, r := range s.records {
		if r.Message != msg {
			continue
		}
		m := map[string]string{"level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool {
			flatten(m, "", a)
			return true
		})
		out = append(out, m)
	}
	return out
}

// failures returns the "tool call failed" records.
func (s *logSink) failures() []map[string]string { return s.byMessage("toolerr: tool call failed") }

func flatten(m map[string]string, prefix string, a slog.Attr) {
	if a.Value.Kind() == slog.KindGroup {
		for _, g := range a.Value.Group() {
			flatten(m, prefix+a.Key+".", g)
		}
		return
	}
	m[prefix+a.Key] = a.Value.String()
}

// newLogger returns a logger writing into a new sink.
func newLogger() (*slog.Logger, *logSink) {
	s := &logSink{}
	return slog.New(s), s
}

// serve runs h behind New(opts...) on a loopback server and returns its URL.
func serve(t *testing.T, h http.Handler, opts ...Option) string {
	t.Helper()
	opts = append([]Option{WithLogger(quiet)}, opts...)
	srv := httptest.NewServer(New(opts...)(h))
	t.Cleanup(srv.Close)
	return srv.URL
}

// get sends a request and returns the response with its body read.
func do(t *testing.T, method, url string, header http.Header, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

// problem decodes an error body, failing the test when it is not a valid
// toolerr rendering.
func problem(t *testing.T, body []byte) map[string]any {
	t.Helper()
	require.NoError(t, toolerr.Validate(body), "contract-valid body: %s", body)
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	require.NoError(t, d.Decode(&m))
	return m
}

// newServer serves h on a loopback server and returns its URL.
func newServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// fixture returns a file of the repository's testdata folder.
func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	require.NoError(t, err)
	return string(b)
}
