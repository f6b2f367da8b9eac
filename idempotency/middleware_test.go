package idempotency

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

var quiet = slog.New(slog.DiscardHandler)

// labelTool creates a shipping label: it counts its executions and answers
// 201 with the label, a Location and a header that must not be replayed.
type labelTool struct {
	runs    atomic.Int32
	release chan struct{} // when set, the handler waits for it
	status  int
}

func (l *labelTool) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := l.runs.Add(1)
	if l.release != nil {
		<-l.release
	}
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", "/labels/lbl-1")
	w.Header().Set("X-Debug-Run", "secret-run-info")
	status := l.status
	if status == 0 {
		status = http.StatusCreated
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, `{"label":"lbl-1","run":`+string(rune('0'+n))+`,"echo":`+string(body)+`}`)
}

// call sends one request through h.
func call(h http.Handler, key, auth, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(body))
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// code returns the toolerr code of an error response.
func code(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err, "an error body: %s", rec.Body.String())
	return e.Code
}

func newMW(store Store, opts ...Option) func(http.Handler) http.Handler {
	return Middleware(store, append([]Option{WithLogger(quiet)}, opts...)...)
}

func TestReplay(t *testing.T) {
	tool := &labelTool{}
	h := newMW(NewMemoryStore())(tool)
	first := call(h, "k-1", "Bearer a", `{"to":"Oslo","kg":2}`)
	require.Equal(t, 201, first.Code)
	assert.Empty(t, first.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, "86400", first.Header().Get("Idempotency-Retention"), "retention is advertised")

	again := call(h, "k-1", "Bearer a", "{ \"kg\": 2.0, \"to\": \"Oslo\" }") // same request, other key order, whitespace, 2 vs 2.0
	assert.EqualValues(t, 1, tool.runs.Load(), "the handler ran once")
	assert.Equal(t, 201, again.Code)
	assert.Equal(t, first.Body.String(), again.Body.String(), "the stored body")
	assert.Equal(t, "true", again.Header().Get("Idempotent-Replayed"))
	assert.Equal(t, "/labels/lbl-1", again.Header().Get("Location"), "allow-listed headers are replayed")
	assert.Equal(t, "application/json", again.Header().Get("Content-Type"))
	assert.Empty(t, again.Header().Get("X-Debug-Run"), "other headers are not")
}

func TestKeyRules(t *testing.T) {
	tool := &labelTool{}
	tests := []struct {
		name   string
		opts   []Option
		header []string
		status int
		code   string
	}{
		{"missing, optional: runs", nil, nil, 201, ""},
		{"missing, required", []Option{Required()}, nil, 400, toolerr.CodeIdempotencyKeyMissing},
		{"too long", nil, []string{strings.Repeat("k", 256)}, 400, toolerr.CodeValidationFailed},
		{"control character", nil, []string{"k-\x01"}, 400, toolerr.CodeValidationFailed},
		{"space", nil, []string{"k 1"}, 400, toolerr.CodeValidationFailed},
		{"non-ASCII", nil, []string{"clé"}, 400, toolerr.CodeValidationFailed},
		{"two values", nil, []string{"a", "b"}, 400, toolerr.CodeValidationFailed},
		{"longest allowed", nil, []string{strings.Repeat("k", 255)}, 201, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newMW(NewMemoryStore(), tc.opts...)(tool)
			req := httptest.NewRequest("POST", "/tools/x", strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer a")
			req.Header["Idempotency-Key"] = tc.header
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tc.status, rec.Code)
			if tc.code != "" {
				assert.Equal(t, tc.code, code(t, rec))
			}
		})
	}
}

func TestReusedKeyIsCheckedBeforeInFlight(t *testing.T) {
	tool := &labelTool{release: make(chan struct{})}
	h := newMW(NewMemoryStore())(tool)
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- call(h, "k-1", "Bearer a", `{"to":"Oslo"}`) }()
	require.Eventually(t, func() bool { return tool.runs.Load() == 1 }, time.Second, time.Millisecond)

	other := call(h, "k-1", "Bearer a", `{"to":"Bergen"}`)
	assert.Equal(t, 422, other.Code)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, code(t, other), "reuse wins over in-flight")

	same := call(h, "k-1", "Bearer a", `{"to":"Oslo"}`)
	assert.Equal(t, 409, same.Code)
	assert.Equal(t, toolerr.CodeIdempotencyInProgress, code(t, same))
	assert.Equal(t, "1", same.Header().Get("Retry-After"))
	e, _ := toolerr.Parse(same.Body.Bytes())
	assert.True(t, e.Retryable)

	close(tool.release)
	assert.Equal(t, 201, (<-done).Code)
	assert.EqualValues(t, 1, tool.runs.Load())
}

func TestWaitForInFlight(t *testing.T) {
	tool := &labelTool{release: make(chan struct{})}
	h := newMW(NewMemoryStore(), WithWait(2*time.Second))(tool)
	go call(h, "k-1", "Bearer a", `{}`)
	require.Eventually(t, func() bool { return tool.runs.Load() == 1 }, time.Second, time.Millisecond)
	go func() { time.Sleep(50 * time.Millisecond); close(tool.release) }()
	rec := call(h, "k-1", "Bearer a", `{}`)
	assert.Equal(t, 201, rec.Code, "waited, then replayed")
	assert.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 1, tool.runs.Load())
}

func TestWhatIsNotStored(t *testing.T) {
	for _, status := range []int{500, 503, 408, 409, 429} {
		tool := &labelTool{status: status}
		h := newMW(NewMemoryStore())(tool)
		call(h, "k-1", "Bearer a", `{}`)
		rec := call(h, "k-1", "Bearer a", `{}`)
		assert.Equal(t, status, rec.Code)
		assert.EqualValues(t, 2, tool.runs.Load(), "a %d releases the key: the retry runs", status)
	}
	tool := &labelTool{status: 500}
	h := newMW(NewMemoryStore(), StoreServerErrors())(tool)
	call(h, "k-1", "Bearer a", `{}`)
	rec := call(h, "k-1", "Bearer a", `{}`)
	assert.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"), "stored by option")
	assert.EqualValues(t, 1, tool.runs.Load())
}

func TestPanicReleasesTheKey(t *testing.T) {
	var runs atomic.Int32
	h := newMW(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if runs.Add(1) == 1 {
			panic("label printer jammed")
		}
		w.WriteHeader(201)
	}))
	assert.Panics(t, func() { call(h, "k-1", "Bearer a", `{}`) }, "the panic goes on to the recoverer")
	assert.Equal(t, 201, call(h, "k-1", "Bearer a", `{}`).Code, "the retry runs: nothing was stored")
	assert.EqualValues(t, 2, runs.Load())
}

func TestClientGoneBeforeAnswerReleasesTheKey(t *testing.T) {
	var runs atomic.Int32
	h := newMW(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if runs.Add(1) == 1 {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(201)
	}))
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("POST", "/tools/x", strings.NewReader(`{}`)).WithContext(ctx)
	req.Header.Set("Idempotency-Key", "k-1")
	req.Header.Set("Authorization", "Bearer a")
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	h.ServeHTTP(httptest.NewRecorder(), req)
	assert.Equal(t, 201, call(h, "k-1", "Bearer a", `{}`).Code)
	assert.EqualValues(t, 2, runs.Load())
}

func TestLargeResponseIsAnsweredButNotStored(t *testing.T) {
	big := strings.Repeat("x", 4096)
	var runs atomic.Int32
	logs := &recordingHandler{}
	h := Middleware(NewMemoryStore(), WithMaxStored(1024), WithLogger(slog.New(logs)))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		_, _ = io.WriteString(w, big)
	}))
	first := call(h, "k-1", "Bearer a", `{}`)
	assert.Equal(t, big, first.Body.String(), "answered in full")
	second := call(h, "k-1", "Bearer a", `{}`)
	assert.Equal(t, big, second.Body.String(), "never a truncated replay")
	assert.Empty(t, second.Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 2, runs.Load())
	assert.Contains(t, logs.messages(), "toolerr: idempotency key released: the response is larger than the storable limit; a retry will run again")
}

// failingStore fails every call.
type failingStore struct{}

func (failingStore) Claim(context.Context, string, string, time.Duration) (Claim, error) {
	return Claim{}, errors.New("dial tcp 10.0.0.9:6379: connection refused")
}
func (failingStore) Complete(context.Context, string, uint64, Response, time.Duration) error {
	return errors.New("down")
}
func (failingStore) Release(context.Context, string, uint64) error { return errors.New("down") }
func (failingStore) Get(context.Context, string) (Record, bool, error) {
	return Record{}, false, errors.New("down")
}

func TestStoreUnavailable(t *testing.T) {
	tool := &labelTool{}
	closed := call(newMW(failingStore{})(tool), "k-1", "Bearer a", `{}`)
	assert.Equal(t, 503, closed.Code)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, code(t, closed))
	assert.NotContains(t, closed.Body.String(), "10.0.0.9")
	assert.EqualValues(t, 0, tool.runs.Load(), "fail closed: the handler does not run")

	open := call(newMW(failingStore{}, FailOpen())(tool), "k-1", "Bearer a", `{}`)
	assert.Equal(t, 201, open.Code)
	assert.EqualValues(t, 1, tool.runs.Load(), "fail open: it runs")
}

func TestPrincipalsNeverShareKeys(t *testing.T) {
	tool := &labelTool{}
	h := newMW(NewMemoryStore())(tool)
	alice := call(h, "k-1", "Bearer alice-token", `{"to":"Oslo"}`)
	bob := call(h, "k-1", "Bearer bob-token", `{"to":"Oslo"}`)
	assert.EqualValues(t, 2, tool.runs.Load(), "same key string, two principals: two executions")
	assert.Empty(t, bob.Header().Get("Idempotent-Replayed"))
	assert.NotEqual(t, alice.Body.String(), bob.Body.String())
	assert.Equal(t, "true", call(h, "k-1", "Bearer alice-token", `{"to":"Oslo"}`).Header().Get("Idempotent-Replayed"))
}

func TestReadsPassThrough(t *testing.T) {
	tool := &labelTool{}
	h := newMW(NewMemoryStore(), Required())(tool)
	req := httptest.NewRequest("GET", "/tools/x", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, 201, rec.Code, "GET is not idempotency-checked")
}

// recordingHandler keeps log messages.
type recordingHandler struct {
	mu   sync.Mutex
	msgs []string
}

func (h *recordingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Message)
	return nil
}
func (h *recordingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordingHandler) WithGroup(string) slog.Handler      { return h }
func (h *recordingHandler) messages() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.msgs...)
}
