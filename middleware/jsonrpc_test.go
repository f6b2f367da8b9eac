package middleware

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// What an attacker plants in the text a JSON-RPC library or a handler
// answers with; none of it may reach the client.
const (
	rpcSecret = "password=hunter2hunter2"
	rpcDSN    = "postgres://user:pw@db.prod.internal:5432/orders"
	rpcHTML   = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><script>alert(1)</script></head><body><h1>502 Bad Gateway</h1><hr><center>nginx/1.25.3</center></body></html>"
	rpcStack  = "panic: runtime error: invalid memory address or nil pointer dereference\n" +
		"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b1c]\n\ngoroutine 42 [running]:\n" +
		"main.(*Ledger).Post(0x0, {0xc000123456, 0x10})\n\t/srv/ledger/internal/post.go:88 +0x1c\n" +
		"main.handle(0xc0000a2000)\n\t/srv/ledger/cmd/api/main.go:41 +0x9f\ncreated by net/http.(*Server).Serve\n" +
		"\t/usr/local/go/src/net/http/server.go:3285 +0x4b4"
	rpcHostile = "ledger failed: " + rpcSecret + " at " + rpcDSN + " " + rpcHTML + "\n" + rpcStack
)

// rpcLeaks are fragments of the planted text: none may be in a body.
var rpcLeaks = []string{"hunter2hunter2", "user:pw", "db.prod.internal", "<html", "<script", "alert(1)",
	"goroutine 42", "post.go:88", "/srv/ledger", "0xc000123456"}

// rpcReply is a JSON-RPC response as a client decodes it.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// rpcErrorReply decodes a JSON-RPC error answer, failing the test unless
// it is exactly one: Content-Type application/json, the members jsonrpc,
// id and error and no other, none of the planted text.
func rpcErrorReply(t *testing.T, resp *http.Response, body []byte) rpcReply {
	t.Helper()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "a JSON-RPC answer, not problem+json: %s", body)
	var members map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &members), "a JSON object: %s", body)
	assert.ElementsMatch(t, []string{"jsonrpc", "id", "error"}, keys(members), "%s", body)
	var r rpcReply
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	require.NoError(t, d.Decode(&r))
	require.Equal(t, "2.0", r.JSONRPC)
	require.NotNil(t, r.Error, "%s", body)
	for _, leak := range rpcLeaks {
		assert.NotContains(t, string(body), leak, "planted text reached the client")
	}
	return r
}

// rpcProblem checks that a JSON-RPC error's data is a valid toolerr
// problem with the response's request id, and returns it.
func rpcProblem(t *testing.T, resp *http.Response, r rpcReply) map[string]any {
	t.Helper()
	p := problem(t, r.Error.Data)
	assert.Equal(t, resp.Header.Get("X-Request-Id"), p["request_id"], "the problem carries the response's request id")
	return p
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestJSONRPCHintByHeaders(t *testing.T) {
	const mcpAccept = "application/json, text/event-stream"
	cases := []struct {
		method string
		header map[string]string
		want   jsonrpcHint
	}{
		{"POST", map[string]string{"Content-Type": "application/json", "Accept": mcpAccept}, hintMCP},
		{"POST", map[string]string{"Content-Type": "application/json; charset=utf-8", "Accept": "text/event-stream;q=0.9, Application/JSON"}, hintMCP},
		{"POST", map[string]string{"Content-Type": "application/json", "Mcp-Protocol-Version": "2025-06-18"}, hintMCP},
		{"GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": "s1"}, hintMCP},
		{"DELETE", map[string]string{"Mcp-Session-Id": "s1"}, hintMCP},
		{"POST", map[string]string{"Content-Type": "application/json"}, hintBody},
		{"POST", map[string]string{"Content-Type": "application/json-rpc"}, hintBody},
		{"POST", map[string]string{"Content-Type": "application/jsonrequest"}, hintBody},
		{"POST", map[string]string{"Content-Type": "application/vnd.api+json"}, hintBody},
		{"POST", map[string]string{"Content-Type": "application/json", "Accept": "*/*"}, hintBody},
		{"POST", map[string]string{"Content-Type": "text/plain", "Accept": mcpAccept}, hintNone},
		{"POST", map[string]string{"Content-Type": "application/jsonx"}, hintNone},
		{"POST", map[string]string{"Content-Type": "application/+json"}, hintNone},
		{"POST", map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, hintNone},
		{"POST", nil, hintNone},
		{"PUT", map[string]string{"Content-Type": "application/json", "Accept": mcpAccept}, hintNone},
		{"GET", map[string]string{"Accept": "text/event-stream"}, hintNone},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, "/mcp", nil)
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		assert.Equal(t, c.want, jsonrpcHintOf(r, r.Header.Get("Content-Type")), "%s %v", c.method, c.header)
	}
}

// TestJSONRPCRequestID: the id answered is the request's id token exactly
// as the request spelled it, or null: never one the request did not
// certainly carry.
func TestJSONRPCRequestID(t *testing.T) {
	long := `"` + strings.Repeat("a", maxJSONRPCIDLen) + `"`
	cases := []struct {
		name, body, id string // id "" is null
		msg            bool
	}{
		{"number", `{"jsonrpc":"2.0","id":7,"method":"m"}`, `7`, true},
		{"string", `{"jsonrpc":"2.0","id":"req-1","method":"m"}`, `"req-1"`, true},
		{"large integer, verbatim", `{"jsonrpc":"2.0","id":1152921504606846977,"method":"m"}`, `1152921504606846977`, true},
		{"escapes, verbatim", `{"jsonrpc":"2.0","id":"a\u00e9\"\\b\n","method":"m"}`, `"a\u00e9\"\\b\n"`, true},
		{"id after params (TypeScript SDK order)", `{"method":"tools/call","params":{"a":[1,{"id":3}]},"jsonrpc":"2.0","id":42}`, `42`, true},
		{"escaped key", `{"jsonrpc":"2.0","\u0069d":5,"method":"m"}`, `5`, true},
		{"exponent", `{"jsonrpc":"2.0","id":-1e3,"method":"m"}`, `-1e3`, true},
		{"whitespace around", " \n{ \"jsonrpc\" : \"2.0\" , \"id\" : 9 , \"method\" : \"m\" }\n", `9`, true},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"m"}`, ``, true},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``, true},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"m"}`, ``, true},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"m"}`, ``, true},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"m"}`, ``, true},
		{"huge id", `{"jsonrpc":"2.0","id":` + long + `,"method":"m"}`, ``, true},
		{"invalid UTF-8 id", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"m\"}", ``, true},
		{"duplicate id", `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, ``, true},
		{"id in another case", `{"jsonrpc":"2.0","id":1,"ID":2,"method":"m"}`, ``, true},
		{"only ID", `{"jsonrpc":"2.0","ID":2,"method":"m"}`, ``, true},
		{"escaped case variant", `{"jsonrpc":"2.0","id":1,"\u0049D":2,"method":"m"}`, ``, true},
		{"long s, which folds to s", `{"jsonrpc":"2.0","id":1,"j\u017fonrpc":"1.0","method":"m"}`, ``, true},
		{"long s, unescaped", `{"jsonrpc":"2.0","id":1,"jſonrpc":"1.0","method":"m"}`, ``, true},
		{"escaped value of jsonrpc", `{"jsonrpc":"2\u002e0","id":1,"method":"m"}`, `1`, true},
		{"escaped quote in a key", `{"jsonrpc":"2.0","i\"d":1,"id":2,"method":"m"}`, `2`, true},
		{"two versions", `{"jsonrpc":"2.0","jsonrpc":"1.0","id":2,"method":"m"}`, ``, true},
		{"two methods", `{"jsonrpc":"2.0","id":2,"method":"m","method":3}`, ``, true},
		{"Method in another case", `{"jsonrpc":"2.0","id":2,"method":"m","Method":"n"}`, ``, true},
		{"a response, not a request", `{"jsonrpc":"2.0","id":3,"result":{}}`, ``, true},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":1}`, ``, true},
		{"malformed after the id", `{"jsonrpc":"2.0","id":3,"method":"m","params":{`, ``, true},
		{"trailing data", `{"jsonrpc":"2.0","id":3,"method":"m"}{}`, ``, true},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}]`, ``, true},
		{"version 1.0", `{"jsonrpc":"1.0","id":3,"method":"m"}`, ``, false},
		{"no version", `{"id":3,"method":"m"}`, ``, false},
		{"nested jsonrpc only", `{"params":{"jsonrpc":"2.0"},"id":3,"method":"m"}`, ``, false},
		{"batch of other objects", `[{"amount":5}]`, ``, false},
		{"plain JSON", `{"amount":5,"currency":"eur"}`, ``, false},
		{"not JSON", `amount=5`, ``, false},
		{"empty", ``, ``, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg, call := scanJSONRPC([]byte(c.body), true)
			assert.Equal(t, c.msg, msg, "recognised")
			assert.Equal(t, c.id, string(call.id))
		})
	}
}

func TestJSONRPCParseError(t *testing.T) {
	for body, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":`: true,
		`not json`:                          true,
		``:                                  true,
		"\xef\xbb\xbf{}":                    true, // a byte-order mark is not JSON
		`{"jsonrpc":"2.0","id":1}`:          false,
		`[]`:                                false,
	} {
		_, call := scanJSONRPC([]byte(body), true)
		assert.Equal(t, want, call.parseError, "%q", body)
	}
	// A body cut at the bound is not known to be malformed, and its id is
	// not known to be the only one.
	msg, call := scanJSONRPC([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":"`), false)
	assert.True(t, msg)
	assert.False(t, call.parseError)
	assert.Nil(t, call.id)
}

// TestBodyTeePassesEveryByte: the handler reads the body it would read
// without the middleware, byte for byte, however it reads it; the tee
// keeps no more than its bound.
func TestBodyTeePassesEveryByte(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"upload","params":{"blob":"` + strings.Repeat("0123456789abcdef", 20<<10) + `"}}`)
	var got []byte
	h := New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 777) // an odd size: reads straddle the bound
		for {
			n, err := r.Body.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		w.WriteHeader(http.StatusOK)
	}))
	r := httptest.NewRequest("POST", "/rpc", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), r)
	assert.Equal(t, body, got)

	tee := watchBody(io.NopCloser(bytes.NewReader(body)))
	kept, whole := tee.body(true)
	assert.Len(t, kept, maxJSONRPCBody)
	assert.False(t, whole)
	assert.Equal(t, body[:maxJSONRPCBody], kept)
	tee.release()
}

// TestJSONRPCBodyLeftUnreadWhenClientAwaitsContinue: a client that sent
// Expect: 100-continue waits before it sends the body; a handler that
// refused without reading it must not make the middleware ask for it.
func TestJSONRPCBodyLeftUnreadWhenClientAwaitsContinue(t *testing.T) {
	src := &countingReader{r: strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"m"}`)}
	h := New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unsupported", http.StatusUnsupportedMediaType)
	}))
	r := httptest.NewRequest("POST", "/mcp", io.NopCloser(src))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Expect", "100-continue")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	reply := rpcErrorReply(t, w.Result(), w.Body.Bytes())
	assert.Equal(t, "null", string(reply.ID))
	assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code, "not known to be malformed")
	assert.Zero(t, src.reads, "the body was not read")

	// Once the handler has read some of it, the rest is read too.
	src = &countingReader{r: strings.NewReader(`{"jsonrpc":"2.0","id":6,"method":"m"}`)}
	r = httptest.NewRequest("POST", "/mcp", io.NopCloser(src))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Expect", "100-continue")
	w = httptest.NewRecorder()
	New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = r.Body.Read(make([]byte, 3))
		http.Error(w, "unsupported", http.StatusUnsupportedMediaType)
	})).ServeHTTP(w, r)
	reply = rpcErrorReply(t, w.Result(), w.Body.Bytes())
	assert.Equal(t, "6", string(reply.ID))

	// Without the Expect header the body is read to find the id.
	src = &countingReader{r: strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"m"}`)}
	r = httptest.NewRequest("POST", "/mcp", io.NopCloser(src))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	reply = rpcErrorReply(t, w.Result(), w.Body.Bytes())
	assert.Equal(t, "5", string(reply.ID))
	assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code)
	assert.Equal(t, toolerr.CategoryValidation, toolerr.Category(rpcProblem(t, w.Result(), reply)["category"].(string)))
}

// countingReader counts the reads of a body.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}
