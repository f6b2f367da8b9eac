package middleware

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// FuzzTraceparent: the trace id read from any traceparent header is either
// empty or a valid W3C trace id taken verbatim from the header.
func FuzzTraceparent(f *testing.F) {
	f.Add("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	f.Add("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-future")
	f.Add("ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	f.Add("00-00000000000000000000000000000000-b7ad6b7169203331-01")
	f.Add("")
	f.Fuzz(func(t *testing.T, v string) {
		id := traceparentTraceID(v)
		if id == "" {
			return
		}
		if !toolerr.ValidTraceID(id) || len(v) < 35 || v[3:35] != id {
			t.Fatalf("traceparentTraceID(%q) = %q", v, id)
		}
	})
}

// FuzzCapturedResponse: whatever raw error response a handler writes
// (status, content type, delay header, body), the agent gets one
// contract-valid error with the same request id as the header, and none of
// the planted secret or the HTML markup reaches it.
func FuzzCapturedResponse(f *testing.F) {
	f.Add(502, "text/html", "", "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
	f.Add(429, "application/json", "12", `{"error":{"message":"slow down","type":"rate_limit"}}`)
	f.Add(400, "application/json", "", `{"message":"bad field","field":"amount"}`)
	f.Add(500, "text/plain", "", "Traceback (most recent call last):\n  File \"/app/x.py\", line 1, in f\nValueError: bad")
	f.Add(404, "application/problem+json", "", `{"type":"urn:toolerr:NOT_FOUND","title":"t","status":404,"detail":"d","code":"NOT_FOUND","category":"not_found","severity":"error","retryable":false}`)
	f.Add(503, "", "Wed, 21 Oct 2015 07:28:00 GMT", "")
	f.Add(418, "text/plain", "-1", "\xff\xfe")
	const secret = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
	h := New(WithLogger(quiet))
	f.Fuzz(func(t *testing.T, status int, contentType, retryAfter, body string) {
		if status < 400 || status > 599 {
			status = 400 + (status%200+200)%200
		}
		planted := body + " token " + secret
		handler := h(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if contentType != "" && utf8.ValidString(contentType) && !strings.ContainsAny(contentType, "\r\n") {
				w.Header().Set("Content-Type", contentType)
			}
			if retryAfter != "" && !strings.ContainsAny(retryAfter, "\r\n") {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(status)
			_, _ = w.Write([]byte(planted))
		}))
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest("POST", "/tools/x", nil))
		out := rec.Body.Bytes()
		if err := toolerr.Validate(out); err != nil {
			t.Fatalf("invalid error body for status %d %q: %v\n%s", status, body, err, out)
		}
		e, err := toolerr.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		if e.RequestID != rec.Header().Get("X-Request-Id") {
			t.Fatalf("request id %q, header %q", e.RequestID, rec.Header().Get("X-Request-Id"))
		}
		if strings.Contains(string(out), secret) || strings.Contains(string(out), "R4nd0mT0ken") {
			t.Fatalf("the secret reached the agent:\n%s", out)
		}
		if rec.Code < 400 {
			t.Fatalf("status %d", rec.Code)
		}
	})
}
