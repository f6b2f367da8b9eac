package middleware

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// rawHandler writes a raw response with the given status, headers and body.
func rawHandler(status int, header map[string]string, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
}

// vendorHandler is h run by a handler that relays the vendor's answer and
// says so with toolerr.RecordVendor.
func vendorHandler(vendor string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		toolerr.RecordVendor(r.Context(), vendor)
		h.ServeHTTP(w, r)
	})
}

func TestPassThroughIsUntouched(t *testing.T) {
	body := strings.Repeat("x", 1024)
	url := serve(t, rawHandler(http.StatusCreated, map[string]string{"Content-Type": "text/plain", "X-Custom": "kept"}, body))
	resp, got := do(t, "POST", url, nil, "")
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, body, string(got))
	assert.Equal(t, "kept", resp.Header.Get("X-Custom"))
	assert.Equal(t, "text/plain", resp.Header.Get("Content-Type"))
	assert.True(t, toolerr.ValidRequestID(resp.Header.Get("X-Request-Id")))
}

func TestPassThroughDoesNotBuffer(t *testing.T) {
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first chunk\n")
		w.(http.Flusher).Flush()
		<-release // the client must see the first chunk before the handler returns
		_, _ = io.WriteString(w, "second chunk\n")
	})
	url := serve(t, h)
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	buf := make([]byte, len("first chunk\n"))
	_, err = io.ReadFull(resp.Body, buf)
	require.NoError(t, err)
	assert.Equal(t, "first chunk\n", string(buf))
	close(release)
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "second chunk\n", string(rest))
}

func TestCaptureReplacesRawErrors(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		wantStatus int
		wantCode   string
		wantIn     []string // substrings of the detail
		never      []string // substrings that must not appear anywhere in the response
	}{
		{
			name: "nginx HTML 502", status: 502,
			header:     map[string]string{"Content-Type": "text/html", "Server": "nginx/1.25.3"},
			body:       fixture(t, "html/nginx_502.html"),
			wantStatus: 503, wantCode: toolerr.CodeUpstreamUnavailable,
			wantIn: []string{"502 Bad Gateway"},
			never:  []string{"<html", "<center>", "nginx/1.25.3"},
		},
		{
			name: "vendor JSON with a secret in its message", status: 400,
			header:     map[string]string{"Content-Type": "application/json"},
			body:       `{"error":{"message":"Invalid API key ghp_9Zq2R7mKx4LwP0vNc8TbY3sHd6JfG1aUe5Qo for host db.internal","type":"invalid_request_error"}}`,
			wantStatus: 400, wantCode: toolerr.CodeValidationFailed,
			wantIn: []string{"Invalid API key"},
			never:  []string{"ghp_9Zq2R7mKx4LwP0vNc8", "db.internal"},
		},
		{
			name: "plain text 404", status: 404,
			header:     map[string]string{"Content-Type": "text/plain"},
			body:       "no such order",
			wantStatus: 404, wantCode: toolerr.CodeNotFound,
			wantIn: []string{"no such order"},
		},
		{
			name: "empty 429 with Retry-After", status: 429,
			header:     map[string]string{"Retry-After": "7"},
			wantStatus: 429, wantCode: toolerr.CodeRateLimited,
		},
		{
			name: "Python traceback in a 500", status: 500,
			header: map[string]string{"Content-Type": "text/plain"},
			body:   "Traceback (most recent call last):\n  File \"/srv/app/views.py\", line 12, in refund\n    charge(x)\nValueError: amount must be positive\n",
			// Written by the service itself: its own failure, no upstream.
			wantStatus: 500, wantCode: toolerr.CodeInternal,
			never: []string{"/srv/app/views.py", "charge(x)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := serve(t, rawHandler(tc.status, tc.header, tc.body))
			resp, body := do(t, "GET", url, nil, "")
			assert.Equal(t, tc.wantStatus, resp.StatusCode)
			assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
			assert.Empty(t, resp.Header.Get("Server"), "the handler's headers are not relayed")
			m := problem(t, body)
			assert.Equal(t, tc.wantCode, m["code"])
			assert.Equal(t, resp.Header.Get("X-Request-Id"), m["request_id"])
			for _, s := range tc.wantIn {
				assert.Contains(t, m["detail"], s)
			}
			for _, s := range tc.never {
				assert.NotContains(t, string(body), s)
				for k, v := range resp.Header {
					assert.NotContains(t, strings.Join(v, " "), s, "header %s", k)
				}
			}
		})
	}
}

func TestCaptureUsesDelayHeaders(t *testing.T) {
	url := serve(t, rawHandler(429, map[string]string{"Retry-After": "7"}, ""))
	resp, body := do(t, "GET", url, nil, "")
	m := problem(t, body)
	assert.Equal(t, true, m["retryable"])
	assert.Equal(t, "7000", fmt.Sprint(m["retry_after_ms"]))
	assert.Equal(t, "7", resp.Header.Get("Retry-After"))
}

func TestCaptureOverCapIsDrainedNotHeld(t *testing.T) {
	const capBytes = 1024
	var wrote int
	var writeErr error
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		chunk := []byte(strings.Repeat("z", 4096))
		for range 64 { // 256 KiB in all
			n, err := w.Write(chunk)
			wrote += n
			if err != nil {
				writeErr = err
				return
			}
		}
	})
	url := serve(t, h, WithBodyCap(capBytes))
	resp, body := do(t, "GET", url, nil, "")
	assert.Equal(t, 503, resp.StatusCode)
	require.NoError(t, writeErr, "writes past the cap succeed for the handler")
	assert.Equal(t, 64*4096, wrote)
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeToolUnavailable, m["code"])
	assert.Less(t, len(body), 4096, "the dropped part never reaches the body")
}

func TestCaptureReadFromIsCapped(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		n, err := io.Copy(w, strings.NewReader(strings.Repeat("y", 100_000)))
		if err != nil || n != 100_000 {
			panic(fmt.Sprintf("io.Copy into a capturing writer: %d, %v", n, err))
		}
	})
	rec := &recorder{w: httptest.NewRecorder(), m: newHandler([]Option{WithBodyCap(512), WithLogger(quiet)}), capturing: true}
	n, err := rec.captureFrom(strings.NewReader(strings.Repeat("y", 100_000)))
	require.NoError(t, err)
	assert.EqualValues(t, 100_000, n)
	assert.Len(t, rec.body, 512)
	assert.True(t, rec.truncated)

	url := serve(t, h, WithBodyCap(512))
	resp, body := do(t, "GET", url, nil, "")
	assert.Equal(t, 500, resp.StatusCode, "a local 502 claims a gateway failure it shows no evidence of")
	assert.Equal(t, toolerr.CodeInternal, problem(t, body)["code"])
}

func TestToolerrBodyPassesThroughWithIDs(t *testing.T) {
	reg := toolerr.Default()
	t.Run("written with toolerr.Write", func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.Write(w, r, reg.New(toolerr.CodeValidationFailed, "limit must be at most 100.").
				WithField("limit").WithSuggestedValue(100))
		})
		url := serve(t, h)
		resp, body := do(t, "POST", url, http.Header{"X-Request-Id": {"agent-call-7"}}, "")
		assert.Equal(t, 400, resp.StatusCode)
		m := problem(t, body)
		assert.Equal(t, toolerr.CodeValidationFailed, m["code"])
		assert.Equal(t, "limit", m["field"])
		assert.Equal(t, "limit must be at most 100.", m["detail"])
		assert.Equal(t, "agent-call-7", m["request_id"])
		assert.Equal(t, "agent-call-7", resp.Header.Get("X-Request-Id"))
	})
	t.Run("a rendered body without ids", func(t *testing.T) {
		raw := string(reg.New(toolerr.CodeNotFound, "Order 7 does not exist.").AppendJSON(nil))
		require.NotContains(t, raw, "request_id")
		url := serve(t, rawHandler(404, map[string]string{"Content-Type": toolerr.ContentTypeProblem}, raw))
		resp, body := do(t, "GET", url, nil, "")
		m := problem(t, body)
		assert.Equal(t, toolerr.CodeNotFound, m["code"])
		assert.Equal(t, "Order 7 does not exist.", m["detail"])
		assert.Equal(t, resp.Header.Get("X-Request-Id"), m["request_id"])
	})
}

func TestEnvelopeFormat(t *testing.T) {
	url := serve(t, rawHandler(404, nil, ""), WithFormat(toolerr.FormatEnvelope))
	resp, body := do(t, "GET", url, nil, "")
	assert.Equal(t, toolerr.ContentTypeEnvelope, resp.Header.Get("Content-Type"))
	assert.Contains(t, string(body), `{"ok":false,"error":{`)
	problem(t, body)
}

func TestWithChi(t *testing.T) {
	r := chi.NewRouter()
	r.Use(New())
	r.Get("/tools/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom: upstream exploded", http.StatusBadGateway)
	})
	r.Method("POST", "/tools/refund", Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeConflict, "Order 9 was refunded already.")
	}))
	srv := newServer(t, r)

	resp, body := do(t, "GET", srv+"/tools/orders/7", nil, "")
	assert.Equal(t, 500, resp.StatusCode, "the status is the code's: INTERNAL_ERROR")
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeInternal, m["code"], "the handler's own 502 blames no downstream")
	assert.NotContains(t, m, "upstream")
	assert.Equal(t, "/tools/orders/{id}", m["tool"], "chi's route pattern names the tool by default")

	resp, body = do(t, "POST", srv+"/tools/refund", nil, "")
	assert.Equal(t, 409, resp.StatusCode)
	m = problem(t, body)
	assert.Equal(t, "refund", m["tool"])
	assert.Equal(t, toolerr.CodeConflict, m["code"])
}
