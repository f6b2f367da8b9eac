package middleware

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// FuzzJSONRPCRequestID: whatever a client posts, the id the middleware
// would answer with is null or exactly the "id" member of a JSON-RPC 2.0
// request object that is the whole body, spelled as the body spells it,
// a string or number of at most maxJSONRPCIDLen bytes; the error object
// built with it is valid JSON that gives the client that id back. A body
// that is not whole never yields an id. An object whose "jsonrpc" member
// is "2.0", as encoding/json reads it, is recognised. Seeds:
// testdata/fuzz/FuzzJSONRPCRequestID.
func FuzzJSONRPCRequestID(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, call := scanJSONRPC(body, true)
		if _, cut := scanJSONRPC(body, false); cut.id != nil || cut.parseError {
			t.Fatalf("a body not read whole gave id %q, parse error %v", cut.id, cut.parseError)
		}
		if call.parseError && json.Valid(body) {
			t.Fatalf("valid JSON called a parse error: %q", body)
		}
		var obj map[string]json.RawMessage
		var declared string
		if json.Unmarshal(body, &obj) == nil && json.Unmarshal(obj["jsonrpc"], &declared) == nil && declared == "2.0" && !msg {
			t.Fatalf("a JSON-RPC 2.0 object not recognised: %q", body)
		}
		if call.id == nil {
			return
		}
		if !msg || !validJSONRPCID(call.id) || string(call.id) == "null" || !bytes.Contains(body, call.id) {
			t.Fatalf("id %q of %q", call.id, body)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("an id from a body that is not one object: %q: %v", body, err)
		}
		var version, method string
		if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" || json.Unmarshal(m["method"], &method) != nil {
			t.Fatalf("an id from what is not a JSON-RPC 2.0 request: %q", body)
		}
		if !bytes.Equal(m["id"], call.id) {
			t.Fatalf("id %q, the body's %q", call.id, m["id"])
		}
		out := appendJSONRPCError(nil, call.id, jsonrpcInternalError, "Internal error", nil)
		var reply rpcReply
		if err := json.Unmarshal(out, &reply); err != nil || !bytes.Equal(reply.ID, call.id) {
			t.Fatalf("answer %s: %v", out, err)
		}
	})
}

// fuzzSecret is planted wherever a fuzzed error response has a "§".
const fuzzSecret = " token ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123 "

// FuzzJSONRPCErrorResponse: whatever error body a JSON-RPC library (or a
// handler relaying one) writes, what the middleware keeps of it is one
// JSON-RPC error response (or a batch of them) with the members jsonrpc,
// id and error only, an integer code, a valid id, a bounded message, and
// every string of message and data sanitized: the planted token never
// gets through. (Whether cleaning is idempotent is the sanitizer's own
// fuzz target's business.) Seeds: testdata/fuzz/FuzzJSONRPCErrorResponse.
func FuzzJSONRPCErrorResponse(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad§","data":{"§":["§"]}}}`)
	m := newHandler([]Option{WithLogger(quiet)})
	f.Fuzz(func(t *testing.T, body string) {
		out, ok := m.cleanJSONRPCErrors([]byte(strings.ReplaceAll(body, "§", fuzzSecret)))
		if !ok {
			return
		}
		var items []json.RawMessage
		if bytes.HasPrefix(out, []byte("[")) {
			if err := json.Unmarshal(out, &items); err != nil || len(items) == 0 {
				t.Fatalf("batch %s: %v", out, err)
			}
		} else {
			items = []json.RawMessage{out}
		}
		rest := string(out) // what the agent reads, less the echoed ids
		for _, item := range items {
			var members map[string]json.RawMessage
			if err := json.Unmarshal(item, &members); err != nil || len(members) != 3 ||
				string(members["jsonrpc"]) != `"2.0"` || members["error"] == nil || members["id"] == nil {
				t.Fatalf("not one JSON-RPC error response: %s (%v)", item, err)
			}
			if id := members["id"]; !validJSONRPCID(id) {
				t.Fatalf("id %s", id)
			} else {
				rest = strings.Replace(rest, `"id":`+string(id), "", 1)
			}
			var e struct {
				Code    json.Number `json:"code"`
				Message *string     `json:"message"`
				Data    any         `json:"data"`
			}
			d := json.NewDecoder(bytes.NewReader(members["error"]))
			d.UseNumber()
			d.DisallowUnknownFields()
			if err := d.Decode(&e); err != nil || e.Message == nil {
				t.Fatalf("error member %s: %v", members["error"], err)
			}
			if _, err := e.Code.Int64(); err != nil {
				t.Fatalf("code %s", e.Code)
			}
			if len(*e.Message) > toolerr.MaxDetailLen || !utf8.ValidString(*e.Message) {
				t.Fatalf("message %q", *e.Message)
			}
			for _, s := range jsonStrings(e.Data, nil) {
				if !utf8.ValidString(s) {
					t.Fatalf("data text %q", s)
				}
			}
		}
		if strings.Contains(rest, "R4nd0mT0ken") {
			t.Fatalf("the planted token got through: %s", out)
		}
	})
}

// jsonStrings appends every string of v, a decoded JSON value, object
// keys included, to out.
func jsonStrings(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = jsonStrings(e, out)
		}
	case map[string]any:
		for k, e := range x {
			out = jsonStrings(e, append(out, k))
		}
	}
	return out
}
