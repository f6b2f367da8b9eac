package middleware

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// rewindBody is a request body read anew each iteration, without an
// allocation.
type rewindBody struct{ bytes.Reader }

func (*rewindBody) Close() error { return nil }

// runJSONRPC serves a POST of body with header h b.N times, each with the
// header set anew (the middleware stamps the request's ids in it).
func runJSONRPC(b *testing.B, h http.Handler, header map[string]string, body []byte) {
	b.Helper()
	req, _ := http.NewRequest("POST", "/mcp", nil)
	rb := &rewindBody{}
	w := &benchWriter{h: make(http.Header, 8)}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		w.reset()
		clear(req.Header)
		for k, v := range header {
			req.Header[k] = []string{v}
		}
		rb.Reset(body)
		req.Body = rb
		h.ServeHTTP(w, req)
	}
	if w.status == 0 && w.n == 0 {
		b.Fatal("the handler wrote nothing")
	}
}

// readingOK reads the request body, as a JSON-RPC server does, and answers
// with okHandler's body.
var readingOK = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	okHandler.ServeHTTP(w, r)
})

// BenchmarkJSONRPC measures what JSON-RPC costs: a call that passes
// through (the body watched, never parsed) against the same call without
// the middleware, and the two error answers, a kept JSON-RPC error and a
// panic answered in JSON-RPC.
func BenchmarkJSONRPC(b *testing.B) {
	call := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search_orders","arguments":{"query":"` +
		strings.Repeat("x", 900) + `"}}}`)
	mcpHeader := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	plainHeader := map[string]string{"Content-Type": "application/json"}
	b.Run("pass_through_mcp/toolerr", func(b *testing.B) { runJSONRPC(b, New(WithLogger(quiet))(readingOK), mcpHeader, call) })
	b.Run("pass_through_plain_json/toolerr", func(b *testing.B) {
		runJSONRPC(b, New(WithLogger(quiet))(readingOK), plainHeader, call)
	})
	b.Run("pass_through/bare", func(b *testing.B) { runJSONRPC(b, readingOK, mcpHeader, call) })
	kept := []byte(`{"jsonrpc":"2.0","id":42,"error":{"code":-32602,"message":"Invalid params: query too long"}}`)
	b.Run("kept_error", func(b *testing.B) {
		runJSONRPC(b, New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(kept)
		})), mcpHeader, call)
	})
	b.Run("panic", func(b *testing.B) {
		runJSONRPC(b, New(WithLogger(quiet))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			panic("boom")
		})), mcpHeader, call)
	})
}
