package middleware

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// wrapLikeEcho mounts mw the way echo.WrapMiddleware does: the framework
// calls the middleware with its own writer, runs its handler inside, keeps
// the writer the middleware handed in, and when the handler failed, writes
// its error response after the middleware has returned, through that
// writer (echo's HTTPErrorHandler). gin's error middleware and huma's
// adapters write late the same way.
func wrapLikeEcho(mw func(http.Handler) http.Handler, handler func(w http.ResponseWriter, r *http.Request) (int, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var (
			inner  http.ResponseWriter
			status int
			err    error
		)
		mw(http.HandlerFunc(func(w2 http.ResponseWriter, r2 *http.Request) {
			inner = w2
			status, err = handler(w2, r2)
		})).ServeHTTP(w, r)
		if err != nil && inner != nil {
			inner.Header().Set("Content-Type", "application/json")
			inner.WriteHeader(status)
			_ = json.NewEncoder(inner).Encode(map[string]string{"message": err.Error()})
		}
	})
}

// TestLateErrorHandlerIsNotAnEmpty200 is the regression test of echo's
// empty 200: a framework that writes its error after the middleware
// returned reached the client as 200 with no body, because the recorder
// still held back every status of 400 or more when nobody was left to send
// it. The response the middleware left unsent is now uncommitted: the
// framework's own answer reaches the client, status and body.
func TestLateErrorHandlerIsNotAnEmpty200(t *testing.T) {
	h := wrapLikeEcho(New(WithLogger(quiet)), func(http.ResponseWriter, *http.Request) (int, error) {
		return http.StatusNotFound, errors.New("Not Found")
	})
	resp, body := do(t, "GET", newServer(t, h)+"/tools/nope", nil, "")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.JSONEq(t, `{"message":"Not Found"}`, string(body))
	assert.True(t, toolerr.ValidRequestID(resp.Header.Get("X-Request-Id")))
}

// TestLateEarlyHintsDoNotCommit: a late writer's 103 Early Hints goes out
// and leaves the response open for its final status.
func TestLateEarlyHintsDoNotCommit(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var inner http.ResponseWriter
		New(WithLogger(quiet))(http.HandlerFunc(func(w2 http.ResponseWriter, _ *http.Request) { inner = w2 })).ServeHTTP(w, r)
		inner.Header().Set("Link", "</app.css>; rel=preload")
		inner.WriteHeader(http.StatusEarlyHints)
		inner.WriteHeader(http.StatusNotFound)
		_, _ = inner.Write([]byte("late"))
	})
	resp, body := do(t, "GET", newServer(t, h)+"/", nil, "")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, "late", string(body))
}

// TestReportedErrorIsRendered: an error handed over with ReportError is
// rendered on the way out, exactly like a Tool's returned error, whatever
// the handler wrote with an error status before, and a framework that
// then writes its own late error answer cannot corrupt it.
func TestReportedErrorIsRendered(t *testing.T) {
	conflict := toolerr.Default().New(toolerr.CodeConflict, "Order 7 was shipped already.").WithField("order_id")
	cases := map[string]func(w http.ResponseWriter, r *http.Request){
		"nothing written": func(w http.ResponseWriter, r *http.Request) {
			require.True(t, ReportError(r.Context(), conflict))
			require.True(t, NameTool(r.Context(), "cancel_order"))
		},
		"status held back first": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest) // gin's AbortWithStatus(400)
			require.True(t, NameTool(r.Context(), "cancel_order"))
			require.True(t, ReportError(r.Context(), conflict))
		},
		"later report wins": func(w http.ResponseWriter, r *http.Request) {
			require.True(t, ReportError(r.Context(), errors.New("first")))
			require.True(t, ReportError(r.Context(), conflict))
			require.True(t, NameTool(r.Context(), "cancel_order"))
		},
	}
	for name, handler := range cases {
		t.Run(name, func(t *testing.T) {
			h := wrapLikeEcho(New(WithLogger(quiet)), func(w http.ResponseWriter, r *http.Request) (int, error) {
				handler(w, r)
				return http.StatusInternalServerError, errors.New("late framework answer")
			})
			resp, body := do(t, "POST", newServer(t, h)+"/tools/cancel_order", nil, "")
			require.Equal(t, http.StatusConflict, resp.StatusCode, "%s", body)
			m := problem(t, body)
			assert.Equal(t, toolerr.CodeConflict, m["code"])
			assert.Equal(t, "order_id", m["field"])
			assert.Equal(t, "cancel_order", m["tool"])
			assert.Equal(t, resp.Header.Get("X-Request-Id"), m["request_id"])
			assert.NotContains(t, m, "upstream")
			assert.NotContains(t, string(body), "late framework answer")
		})
	}
}

// TestReportedErrorIsSanitized: a reported error's text passes through the
// sanitizer like any other.
func TestReportedErrorIsSanitized(t *testing.T) {
	const secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ReportError(r.Context(), toolerr.Default().New(toolerr.CodeValidationFailed, "key "+secret+" rejected"))
	})
	resp, body := do(t, "POST", serve(t, h)+"/tools/x", nil, "")
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.NotContains(t, string(body), secret)
	// A plain Go error's text goes to the log only.
	h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ReportError(r.Context(), errors.New("pq: connection to db.prod.internal:5432 failed"))
	})
	resp, body = do(t, "POST", serve(t, h)+"/tools/x", nil, "")
	require.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Equal(t, toolerr.CodeInternal, problem(t, body)["code"])
	assert.NotContains(t, string(body), "db.prod")
}

// TestReportAfterSuccessKeepsTheSuccess: a response below 400 that went out
// is not undone (it cannot be); the reported error is logged and counted.
func TestReportAfterSuccessKeepsTheSuccess(t *testing.T) {
	logger, sink := newLogger()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte("queued"))
		ReportError(r.Context(), toolerr.Default().New(toolerr.CodeConflict, ""))
	})
	resp, body := do(t, "POST", serve(t, h, WithLogger(logger))+"/tools/x", nil, "")
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, "queued", string(body))
	fails := sink.failures()
	require.Len(t, fails, 1)
	assert.Equal(t, toolerr.CodeConflict, fails[0]["code"])
}

// TestHandOffWithoutMiddleware: with no middleware, or once it has
// returned, the hand-off refuses, so an adapter knows to render itself.
func TestHandOffWithoutMiddleware(t *testing.T) {
	r, _ := http.NewRequest("GET", "/", nil)
	assert.False(t, ReportError(r.Context(), errors.New("x")))
	assert.False(t, NameTool(r.Context(), "x"))
	var late *http.Request
	h := New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { late = r }))
	h.ServeHTTP(discardWriter{}, r)
	require.NotNil(t, late)
	assert.False(t, ReportError(late.Context(), errors.New("x")), "after the middleware returned")
	assert.False(t, ReportError(late.Context(), nil))
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (discardWriter) WriteHeader(int)             {}

// TestOwnRenderingAfterStatusIsNotUpstream is the regression test of the
// false "upstream: toolerr": a status written before toolerr.Write (gin's
// c.AbortWithStatus(400), then Write(CONFLICT)) made the captured body look
// like a relayed toolerr error of a downstream named "toolerr", with the
// request's own id as the upstream's. The rendering is the service's own:
// the code's status, no upstream.
func TestOwnRenderingAfterStatusIsNotUpstream(t *testing.T) {
	conflict := toolerr.Default().New(toolerr.CodeConflict, "Order 7 was shipped already.")
	direct := func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		toolerr.Write(w, r, conflict)
	}
	// The same under a request scope the middleware does not see (a
	// framework that builds its own context): only the body's request id
	// tells that the rendering is this request's.
	foreign := func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		ctx := reqscope.New(r.Context(), toolerr.RequestID(r.Context()), "")
		toolerr.Write(w, r.WithContext(ctx), conflict)
	}
	for name, h := range map[string]http.HandlerFunc{"direct": direct, "foreign scope": foreign} {
		t.Run(name, func(t *testing.T) {
			resp, body := do(t, "POST", serve(t, h)+"/tools/x", nil, "")
			require.Equal(t, http.StatusConflict, resp.StatusCode, "%s", body)
			m := problem(t, body)
			assert.Equal(t, toolerr.CodeConflict, m["code"])
			assert.NotContains(t, m, "upstream")
			assert.Equal(t, resp.Header.Get("X-Request-Id"), m["request_id"])
		})
	}
	// A relayed body of another request keeps its attribution.
	relay := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", toolerr.ContentTypeProblem)
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(`{"type":"urn:toolerr:CONFLICT","title":"Conflict","status":409,"code":"CONFLICT","category":"conflict","severity":"error","retryable":false,"request_id":"downstream-req-1"}`))
	}
	_, body := do(t, "POST", serve(t, http.HandlerFunc(relay))+"/tools/x", nil, "")
	up, _ := problem(t, body)["upstream"].(map[string]any)
	require.NotNil(t, up, "%s", body)
	assert.Equal(t, "downstream-req-1", up["request_id"])
}

// TestLateWriteAfterReplacementIsRefused: once the middleware sent an error
// in place of the handler's response, a late writer's bytes do not reach
// the body, so the error stays one valid JSON document.
func TestLateWriteAfterReplacementIsRefused(t *testing.T) {
	var lateErr error
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var inner http.ResponseWriter
		New(WithLogger(quiet))(http.HandlerFunc(func(w2 http.ResponseWriter, r2 *http.Request) {
			inner = w2
			http.Error(w2, "boom", http.StatusInternalServerError)
		})).ServeHTTP(w, r)
		_, lateErr = inner.Write([]byte(`{"message":"late"}`))
	})
	resp, body := do(t, "GET", newServer(t, h)+"/", nil, "")
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Equal(t, toolerr.CodeInternal, problem(t, body)["code"])
	assert.ErrorIs(t, lateErr, errReplaced)
	assert.False(t, strings.Contains(string(body), `"message":"late"`))
}
