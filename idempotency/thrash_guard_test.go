package idempotency_test

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
)

var quietLog = slog.New(slog.DiscardHandler)

// thrashTool is a tool behind the toolerr middleware and the thrash
// guard: it fails with the error fail returns for the call's body, or
// succeeds (201) when fail returns nil; runs counts the calls it ran.
type thrashTool struct {
	h    http.Handler
	runs atomic.Int32
}

func newThrashTool(counter idempotency.FailureCounter, fail func(body string) error, opts ...idempotency.Option) *thrashTool {
	tt := &thrashTool{}
	tool := middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		tt.runs.Add(1)
		b, _ := io.ReadAll(r.Body)
		if err := fail(string(b)); err != nil {
			return err
		}
		w.WriteHeader(http.StatusCreated)
		return nil
	})
	r := chi.NewRouter()
	r.Use(middleware.New(middleware.WithLogger(quietLog)),
		idempotency.ThrashGuard(counter, append([]idempotency.Option{idempotency.WithLogger(quietLog)}, opts...)...))
	r.Method(http.MethodPost, "/tools/get_order", tool)
	tt.h = r
	return tt
}

// send posts body to h as the caller auth and returns the response.
func send(h http.Handler, auth, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "/tools/get_order", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// errorOf parses the error a response carries.
func errorOf(t *testing.T, rec *httptest.ResponseRecorder) *toolerr.Error {
	t.Helper()
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err, rec.Body.String())
	return e
}

func notFound(string) error { return toolerr.Default().New(toolerr.CodeNotFound, "No order ord-9.") }

func TestThrashGuardRefusesTheThirdIdenticalFailure(t *testing.T) {
	tt := newThrashTool(idempotency.NewMemoryStore(), notFound)
	for i := range 2 {
		assert.Equal(t, 404, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code, "failure %d runs", i+1)
	}
	rec := send(tt.h, "Bearer a", `{ "id" : "ord-9" }`) // the same arguments, canonically
	require.Equal(t, http.StatusConflict, rec.Code)
	e := errorOf(t, rec)
	assert.Equal(t, toolerr.CodeRepeatedFailure, e.Code)
	assert.Equal(t, toolerr.CategoryPolicy, e.Category)
	assert.False(t, e.Retryable)
	assert.Equal(t, "get_order", e.Tool)
	assert.Equal(t, toolerr.CodeNotFound, e.Details["repeated_code"])
	assert.Equal(t, json.Number("2"), e.Details["failures"])
	assert.Equal(t, json.Number("600000"), e.Details["window_ms"])
	assert.Equal(t, "This exact call failed 2 times with NOT_FOUND; do not repeat it: change the arguments, use a fallback tool if one is offered, or ask the user.", e.Detail)
	assert.EqualValues(t, 2, tt.runs.Load(), "the refused call did not run")

	// A refusal is not a failure: it does not extend the run.
	rec = send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	assert.Equal(t, json.Number("2"), errorOf(t, rec).Details["failures"])
	assert.EqualValues(t, 2, tt.runs.Load())
}

func TestThrashGuardLetsOtherCallsRun(t *testing.T) {
	tt := newThrashTool(idempotency.NewMemoryStore(), notFound)
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	assert.Equal(t, 404, send(tt.h, "Bearer a", `{"id":"ord-8"}`).Code, "other arguments run")
	assert.Equal(t, 404, send(tt.h, "Bearer b", `{"id":"ord-9"}`).Code, "another caller runs")
	assert.Equal(t, 404, send(tt.h, "", `{"id":"ord-9"}`).Code, "anonymous callers are not guarded")
	assert.Equal(t, 404, send(tt.h, "", `{"id":"ord-9"}`).Code)
	assert.Equal(t, 404, send(tt.h, "", `{"id":"ord-9"}`).Code)
	assert.EqualValues(t, 7, tt.runs.Load())
	assert.Equal(t, 409, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code)
}

func TestThrashGuardLeavesRetryableFailuresAlone(t *testing.T) {
	tt := newThrashTool(idempotency.NewMemoryStore(), func(string) error {
		return toolerr.Default().New(toolerr.CodeRateLimited, "").WithRetryAfter(time.Second)
	})
	for range 5 {
		assert.Equal(t, 429, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code)
	}
	assert.EqualValues(t, 5, tt.runs.Load())
}

func TestThrashGuardSuccessClearsTheRun(t *testing.T) {
	fail := true
	tt := newThrashTool(idempotency.NewMemoryStore(), func(string) error {
		if fail {
			return notFound("")
		}
		return nil
	})
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	fail = false
	assert.Equal(t, 201, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code)
	fail = true
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	assert.Equal(t, 404, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code, "one failure since the success: it runs")
	assert.Equal(t, 409, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code)
}

func TestThrashGuardAnotherCodeRestartsTheRun(t *testing.T) {
	var code atomic.Value
	code.Store(toolerr.CodeNotFound)
	tt := newThrashTool(idempotency.NewMemoryStore(), func(string) error {
		return toolerr.Default().New(code.Load().(string), "")
	})
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	code.Store(toolerr.CodeValidationFailed)
	send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	assert.Equal(t, 400, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code, "the run restarted at 1 with VALIDATION_FAILED")
	rec := send(tt.h, "Bearer a", `{"id":"ord-9"}`)
	require.Equal(t, 409, rec.Code)
	assert.Equal(t, toolerr.CodeValidationFailed, errorOf(t, rec).Details["repeated_code"])
	assert.EqualValues(t, 3, tt.runs.Load())
}

func TestThrashGuardWindowExpires(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	store := idempotency.NewMemoryStore(idempotency.WithClock(func() time.Time { return now }))
	tt := newThrashTool(store, notFound, idempotency.WithThrashWindow(time.Minute), idempotency.WithThrashAfter(3))
	for range 3 {
		send(tt.h, "Bearer a", `{"id":"ord-9"}`)
		now = now.Add(10 * time.Second)
	}
	assert.Equal(t, 409, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code, "3 failures within a minute")
	now = now.Add(30 * time.Second) // a minute after the first failure
	assert.Equal(t, 404, send(tt.h, "Bearer a", `{"id":"ord-9"}`).Code, "the window passed: it runs")
	assert.EqualValues(t, 4, tt.runs.Load())
}

// TestThrashGuardCountsWhatTheMiddlewareRenders: a raw error response (a
// handler relaying a plain 404) and an error a framework adapter reports
// are rendered by the toolerr middleware after the guard returned; the
// guard counts them.
func TestThrashGuardCountsWhatTheMiddlewareRenders(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"raw response": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, "no such order")
		},
		"reported error": func(w http.ResponseWriter, r *http.Request) {
			middleware.ReportError(r.Context(), errors.Join(toolerr.Default().New(toolerr.CodePermissionDenied, "")))
		},
	} {
		t.Run(name, func(t *testing.T) {
			var runs atomic.Int32
			guard := idempotency.ThrashGuard(idempotency.NewMemoryStore(), idempotency.WithLogger(quietLog))
			stack := middleware.New(middleware.WithLogger(quietLog))(guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				runs.Add(1)
				h(w, r)
			})))
			first := send(stack, "Bearer a", `{"id":"ord-9"}`)
			require.GreaterOrEqual(t, first.Code, 400)
			want := errorOf(t, first).Code
			send(stack, "Bearer a", `{"id":"ord-9"}`)
			rec := send(stack, "Bearer a", `{"id":"ord-9"}`)
			require.Equal(t, 409, rec.Code, rec.Body.String())
			assert.Equal(t, want, errorOf(t, rec).Details["repeated_code"])
			assert.EqualValues(t, 2, runs.Load())
		})
	}
}

// TestThrashGuardWithoutTheMiddleware: alone, the guard reads the toolerr
// error a handler writes, and names the tool itself.
func TestThrashGuardWithoutTheMiddleware(t *testing.T) {
	guard := idempotency.ThrashGuard(nil, idempotency.WithLogger(quietLog))
	h := guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		toolerr.Write(w, r, toolerr.Default().New(toolerr.CodeNotFound, ""))
	}))
	send(h, "Bearer a", `{}`)
	send(h, "Bearer a", `{}`)
	rec := send(h, "Bearer a", `{}`)
	require.Equal(t, 409, rec.Code)
	assert.Equal(t, "/tools/get_order", errorOf(t, rec).Tool)
}

// TestThrashGuardHandlerReadsTheBodyAsSent: on the guard's fast path (no
// run yet) and on its full path (a run counted), the handler reads the
// bytes the client sent, and a body over the read limit is not compared:
// its calls are never refused.
func TestThrashGuardHandlerReadsTheBodyAsSent(t *testing.T) {
	const body = "{ \"id\" : \"ord-9\",\n \"n\": 1.0 }"
	var read []string
	tt := newThrashTool(idempotency.NewMemoryStore(), func(b string) error {
		read = append(read, b)
		return notFound("")
	})
	send(tt.h, "Bearer a", body)
	send(tt.h, "Bearer a", body)
	require.Equal(t, 409, send(tt.h, "Bearer a", `{"n":1,"id":"ord-9"}`).Code, "canonically the same call")
	assert.Equal(t, []string{body, body}, read)

	big := newThrashTool(idempotency.NewMemoryStore(), notFound, idempotency.WithMaxBody(8))
	for range 4 {
		assert.Equal(t, 404, send(big.h, "Bearer a", body).Code)
	}
}
