package middleware

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// timeoutErr is a net.Error that timed out, as a client's dial or read
// deadline returns.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout reading from 10.0.0.7:5432" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

var _ net.Error = timeoutErr{}

func TestToolReturnedErrors(t *testing.T) {
	reg := toolerr.Default()
	tests := []struct {
		name       string
		method     string
		err        error
		wantStatus int
		wantCode   string
		wantDetail string
		never      []string
	}{
		{
			name: "toolerr error wrapped", method: "POST",
			err:        fmt.Errorf("refund: %w", reg.New(toolerr.CodeConflict, "Order 9 was refunded already.")),
			wantStatus: 409, wantCode: toolerr.CodeConflict, wantDetail: "Order 9 was refunded already.",
		},
		{
			name: "toolerr error carrying upstream text", method: "POST",
			err:        reg.New(toolerr.CodeUpstreamUnavailable, "billing said: connect to postgres://app:hunter2secret@10.1.2.3:5432/billing failed"),
			wantStatus: 503, wantCode: toolerr.CodeUpstreamUnavailable,
			never: []string{"hunter2secret", "10.1.2.3"},
		},
		{
			name: "network timeout on a GET", method: "GET",
			err:        fmt.Errorf("calling inventory: %w", timeoutErr{}),
			wantStatus: 504, wantCode: toolerr.CodeUpstreamTimeout,
			never: []string{"10.0.0.7", "i/o timeout"},
		},
		{
			name: "plain error with secrets", method: "POST",
			err:        errors.New("pq: password authentication failed for user app password=hunter2secret host=db.internal"),
			wantStatus: 500, wantCode: toolerr.CodeInternal,
			never: []string{"hunter2secret", "db.internal", "pq:"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := newLogger()
			url := serve(t, Tool("refund", func(w http.ResponseWriter, r *http.Request) error { return tc.err }), WithLogger(logger))
			resp, body := do(t, tc.method, url, nil, "")
			assert.Equal(t, tc.wantStatus, resp.StatusCode)
			m := problem(t, body)
			assert.Equal(t, tc.wantCode, m["code"])
			assert.Equal(t, "refund", m["tool"])
			if tc.wantDetail != "" {
				assert.Equal(t, tc.wantDetail, m["detail"])
			}
			for _, s := range tc.never {
				assert.NotContains(t, string(body), s)
			}
			recs := logs.failures()
			require.Len(t, recs, 1, "one record per error")
			assert.Equal(t, tc.wantCode, recs[0]["code"])
			for _, s := range []string{"hunter2secret"} {
				for k, v := range recs[0] {
					assert.NotContains(t, v, s, "log attribute %s", k)
				}
			}
		})
	}
}

func TestToolErrorReplacesHeldBackResponse(t *testing.T) {
	h := Tool("search", func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html>upstream down</html>"))
		return toolerr.Default().New(toolerr.CodeUpstreamTimeout, "The search backend did not answer in 5 s.")
	})
	resp, body := do(t, "GET", serve(t, h), nil, "")
	assert.Equal(t, 504, resp.StatusCode)
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeUpstreamTimeout, m["code"])
	assert.NotContains(t, string(body), "<html>")
}

func TestToolErrorAfterResponseStartedIsLoggedOnly(t *testing.T) {
	logger, logs := newLogger()
	h := Tool("export", func(w http.ResponseWriter, r *http.Request) error {
		_, _ = w.Write([]byte(`{"rows":[1,2,3]}`))
		return errors.New("closing the export cursor failed")
	})
	resp, body := do(t, "GET", serve(t, h, WithLogger(logger)), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, `{"rows":[1,2,3]}`, string(body))
	recs := logs.failures()
	require.Len(t, recs, 1)
	assert.Equal(t, toolerr.CodeInternal, recs[0]["code"])
	assert.Equal(t, "200", recs[0]["status"])
	assert.Contains(t, recs[0]["cause"], "closing the export cursor failed")
}

func TestToolWithoutMiddlewareUsesDefaults(t *testing.T) {
	h := Tool("lookup", func(w http.ResponseWriter, r *http.Request) error {
		assert.NotEmpty(t, toolerr.RequestID(r.Context()), "the default middleware set a request id")
		return toolerr.Default().New(toolerr.CodeNotFound, "No customer has that email.")
	})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/tools/lookup", nil))
	assert.Equal(t, 404, rec.Code)
	m := problem(t, rec.Body.Bytes())
	assert.Equal(t, "lookup", m["tool"])
	assert.Equal(t, rec.Header().Get("X-Request-Id"), m["request_id"])
}

func TestToolNilErrorWritesNothingExtra(t *testing.T) {
	h := Tool("ping", func(w http.ResponseWriter, r *http.Request) error {
		_, _ = w.Write([]byte("pong"))
		return nil
	})
	resp, body := do(t, "GET", serve(t, h), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "pong", string(body))
}

func TestCancelledContextErrorIsCancelled(t *testing.T) {
	h := Tool("slow", func(w http.ResponseWriter, r *http.Request) error {
		<-r.Context().Done()
		return errors.New("sql: statement interrupted") // what a driver makes of the cancellation
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	New(WithLogger(quiet))(h).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil).WithContext(ctx))
	m := problem(t, rec.Body.Bytes())
	assert.Equal(t, toolerr.CodeCancelled, m["code"])
	assert.Equal(t, 499, rec.Code)
	assert.NotContains(t, rec.Body.String(), "sql:")
}

func TestNestedMiddlewareStepsAside(t *testing.T) {
	logger, logs := newLogger()
	inner := New(WithLogger(logger))(rawHandler(404, nil, "gone"))
	outer := New(WithLogger(logger))(inner)
	rec := httptest.NewRecorder()
	outer.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, 404, rec.Code)
	assert.Equal(t, toolerr.CodeNotFound, problem(t, rec.Body.Bytes())["code"])
	assert.Len(t, logs.failures(), 1, "the error is handled and logged once")
	assert.Equal(t, 1, strings.Count(rec.Header().Get("X-Request-Id"), rec.Header().Get("X-Request-Id")))
}

func TestToolErrorAfterHijackIsLoggedOnly(t *testing.T) {
	logger, logs := newLogger()
	h := Tool("stream", func(w http.ResponseWriter, r *http.Request) error {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return err
		}
		defer conn.Close()
		_, _ = brw.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
		_ = brw.Flush()
		return errors.New("stream ended early")
	})
	resp, body := do(t, "GET", serve(t, h, WithLogger(logger)), nil, "")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "ok", string(body), "nothing is written on a hijacked connection")
	require.Eventually(t, func() bool { return len(logs.failures()) == 1 }, testWait, testTick)
	assert.Equal(t, "0", logs.failures()[0]["status"])
}

func TestTranslatorDoesNotSeeOurRequestID(t *testing.T) {
	var seen http.Header
	tr := TranslatorFunc(func(c *translate.Raw) (classify.Outcome, bool) {
		seen = c.Header.Clone() // the map is the response's, valid during the call
		return classify.Outcome{}, false
	})
	relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", "req_vendor_1")
		w.WriteHeader(http.StatusBadGateway)
	})
	rec := httptest.NewRecorder()
	New(WithLogger(quiet), WithTranslator(tr))(relay).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	require.NotNil(t, seen)
	assert.Equal(t, "req_vendor_1", seen.Get("Request-Id"), "the vendor's headers reach the translator")
	assert.Empty(t, seen.Get("X-Request-Id"), "our own id is not mistaken for the vendor's")
	assert.NotEmpty(t, rec.Header().Get("X-Request-Id"))
}

func TestToolReturningTranslateResponseGetsTheVendorMessage(t *testing.T) {
	billing := &translate.Vendor{
		Name:      "billing",
		HostNames: []string{"billing.example.com"},
		Parse: func(r *translate.Raw) (classify.Outcome, bool) {
			return classify.Outcome{VendorCode: "FROZEN", Message: "account 7 frozen by ops at 10.9.8.7; token sk_live_51HxQmPLqT0k2abcdefghijklmn"}, true
		},
		CodeTable: map[string]string{"FROZEN": toolerr.CodePolicyBlocked},
	}
	set, err := translate.NewSet(nil, translate.WithTranslators(billing)) // no message filter
	require.NoError(t, err)
	h := Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		resp := &http.Response{
			StatusCode: http.StatusForbidden, Header: http.Header{}, Body: http.NoBody,
			Request: httptest.NewRequest("POST", "https://billing.example.com/v1/charges", nil),
		}
		return set.Response(resp)
	})
	_, body := do(t, "POST", serve(t, h), nil, "")
	m := problem(t, body)
	assert.Equal(t, toolerr.CodePolicyBlocked, m["code"])
	assert.Contains(t, m["detail"], "account 7 frozen by ops", "the vendor's message, sanitized")
	assert.NotContains(t, string(body), "10.9.8.7")
	assert.NotContains(t, string(body), "sk_live_")
}
