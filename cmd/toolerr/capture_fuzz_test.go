package main

import (
	"strings"
	"testing"
	"time"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// FuzzParseCapture feeds arbitrary bytes to the raw and HAR parser and
// classifies what it returns: nothing panics, every body stays within the
// cap, a raw capture's status has three digits, and an error response's
// problem names its code.
func FuzzParseCapture(f *testing.F) {
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/2 502\r\ncontent-type: text/html\r\n\r\n<html>bad</html>"))
	f.Add([]byte("HTTP/1.1 429 Too Many Requests\nRetry-After: 3\n\n{\"error\":\"slow\"}"))
	f.Add([]byte(`{"log":{"entries":[{"request":{"method":"GET","url":"https://api.github.com/x"},"response":{"status":403,"headers":[{"name":"x-ratelimit-remaining","value":"0"}],"content":{"text":"e30=","encoding":"base64"}}}]}}`))
	san := sanitize.New()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		caps, err := parseCapture(data)
		if err != nil {
			return
		}
		for _, c := range caps {
			if len(c.Body) > maxResponseBody {
				t.Fatalf("body of %d bytes", len(c.Body))
			}
			if c.Header == nil {
				t.Fatal("nil header")
			}
			if c.ReqHeader == nil && (c.Status < 100 || c.Status > 999) { // a raw capture
				t.Fatalf("raw status %d", c.Status)
			}
			r, ok := classifyResponse(san, c, now)
			if ok && !strings.Contains(string(r.Problem), `"code":"`) {
				t.Fatalf("problem without a code: %s", r.Problem)
			}
		}
	})
}
