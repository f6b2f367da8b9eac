package middleware

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/canonheader"
)

// Protocols stay protocols: JSON-RPC too. A JSON-RPC 2.0 endpoint (MCP's
// streamable HTTP transport, or any JSON-RPC service) answers its errors
// as JSON-RPC error objects, and its clients read nothing else: the
// official Go MCP SDK surfaces the code of a JSON-RPC error body as the
// call's error, and gives up the whole connection on a body it cannot
// read. So for a JSON-RPC request the middleware keeps the library's own
// error objects (sanitized) and answers every error of its own, a panic
// included, as a JSON-RPC error object (jsonrpc_error.go).
//
// A request is recognised as JSON-RPC by the request, never by guessing
// from the response. The headers decide up front, at the cost of a few
// map lookups: MCP's headers (Mcp-Session-Id, Mcp-Protocol-Version, on any
// method: the GET of an SSE stream and the DELETE of a session too), or a
// POST of JSON whose Accept lists both application/json and
// text/event-stream, as MCP clients send on every POST, initialize
// included, make it JSON-RPC; any other POST of JSON (application/json,
// application/json-rpc, application/jsonrequest, or any +json type) may be
// one and its body decides; every other request is not. Only a POST that
// may be JSON-RPC has its body watched ([bodyTee]), and the body is looked
// at only when the middleware answers an error: a response that passes
// through costs nothing more.

// jsonrpcHint is what the headers of a request say about JSON-RPC.
type jsonrpcHint uint8

const (
	// hintNone: not JSON-RPC.
	hintNone jsonrpcHint = iota
	// hintBody: a POST of JSON; JSON-RPC if its body starts as a JSON-RPC
	// 2.0 message or batch.
	hintBody
	// hintMCP: MCP's streamable HTTP; JSON-RPC whatever the body.
	hintMCP
)

// jsonrpcHintOf reads the headers of r, whose Content-Type is ct.
func jsonrpcHintOf(r *http.Request, ct string) jsonrpcHint {
	h := r.Header
	if canonheader.Value(h, "Mcp-Session-Id") != "" || canonheader.Value(h, "Mcp-Protocol-Version") != "" {
		return hintMCP
	}
	if r.Method != http.MethodPost || !jsonMediaType(ct) {
		return hintNone
	}
	if acceptsJSONAndEventStream(h["Accept"]) {
		return hintMCP
	}
	return hintBody
}

// jsonMediaType reports whether ct, a request's Content-Type, is JSON:
// application/json, application/json-rpc, application/jsonrequest (the
// types of JSON-RPC over HTTP) or a +json type, in any case, with any
// parameters.
func jsonMediaType(ct string) bool {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.TrimSpace(ct)
	const app = "application/"
	if len(ct) <= len(app) || !strings.EqualFold(ct[:len(app)], app) {
		return false
	}
	sub := ct[len(app):]
	return strings.EqualFold(sub, "json") || strings.EqualFold(sub, "json-rpc") ||
		strings.EqualFold(sub, "jsonrequest") ||
		len(sub) > len("+json") && strings.EqualFold(sub[len(sub)-len("+json"):], "+json")
}

// acceptsJSONAndEventStream reports whether the Accept values name both
// application/json and text/event-stream, as MCP's streamable HTTP clients
// do on every POST. A wildcard names neither.
func acceptsJSONAndEventStream(values []string) bool {
	jsonOK, streamOK := false, false
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			if i := strings.IndexByte(part, ';'); i >= 0 {
				part = part[:i]
			}
			part = strings.TrimSpace(part)
			jsonOK = jsonOK || strings.EqualFold(part, "application/json")
			streamOK = streamOK || strings.EqualFold(part, "text/event-stream")
		}
	}
	return jsonOK && streamOK
}

// jsonrpcCall is what the middleware knows of a JSON-RPC request when it
// answers it with an error.
type jsonrpcCall struct {
	// id is the request's id as the request spelled it (a JSON string or
	// number, verbatim), or nil for null: the request is a batch, a
	// notification, not whole, not valid JSON, or its id is not one
	// ([validJSONRPCID]) or not certain ([scanJSONRPCRequest]).
	id []byte
	// parseError: the body, all of it read, is not JSON.
	parseError bool
}

// jsonrpcCallOf returns the request as a JSON-RPC call, or nil when it is
// not one. It is asked on the error path only; the answer is kept in the
// request's failure state. The body is the one the handler read, and what
// it left unread up to [maxJSONRPCBody], read now (as net/http reads it
// before replying), unless the client waits for a 100 Continue the server
// never sent.
func (m *handler) jsonrpcCallOf(rec *recorder, r *http.Request) *jsonrpcCall {
	if rec.jsonrpc == hintNone {
		return nil
	}
	f := rec.failure()
	if f.rpcState == rpcUnknown {
		f.rpcState = rpcNot
		readRest := !strings.EqualFold(canonheader.Value(r.Header, "Expect"), "100-continue")
		body, whole := rec.reqBody.body(readRest)
		msg, call := scanJSONRPC(body, whole)
		if msg || rec.jsonrpc == hintMCP {
			f.rpc, f.rpcState = call, rpcIs
		}
	}
	if f.rpcState != rpcIs {
		return nil
	}
	return &f.rpc
}

// What the failure state knows of the request as JSON-RPC.
const (
	rpcUnknown uint8 = iota // not asked yet
	rpcNot                  // not a JSON-RPC request
	rpcIs                   // a JSON-RPC request: failure.rpc
)

// maxJSONRPCIDLen bounds the id the middleware echoes, in bytes of its
// JSON token; a longer one is answered with null.
const maxJSONRPCIDLen = 256

// scanJSONRPC reads a request body, all of it when whole, and reports
// whether it starts as a JSON-RPC 2.0 message (an object with a
// "jsonrpc":"2.0" member) or batch (an array whose first element is one),
// even if it is malformed further on, and what the call is.
func scanJSONRPC(body []byte, whole bool) (msg bool, call jsonrpcCall) {
	b := bytes.TrimLeft(body, " \t\r\n")
	if whole {
		call.parseError = !json.Valid(b)
	}
	if len(b) == 0 {
		return false, call
	}
	switch b[0] {
	case '{':
		var id []byte
		msg, id = scanJSONRPCRequest(b)
		if whole && !call.parseError {
			call.id = id
		}
	case '[':
		dec := json.NewDecoder(bytes.NewReader(b))
		if t, err := dec.Token(); err == nil && t == json.Delim('[') && dec.More() {
			msg, _, _ = walkJSONRPCObject(dec)
		}
	}
	return msg, call
}

// scanJSONRPCRequest reads the object b starts with and reports whether it
// is a JSON-RPC 2.0 message, and the id to answer it with: nil (null)
// unless the object is a request with exactly one member each spelled
// "jsonrpc" (of "2.0"), "method" (a string) and "id", none of them spelled
// otherwise in any case ("ID", "Method"), which a case-insensitive decoder
// would take for them, and the id's value is a valid id. An id that is
// not certain is never echoed: it could match another call of the client.
func scanJSONRPCRequest(b []byte) (msg bool, id []byte) {
	dec := json.NewDecoder(bytes.NewReader(b))
	msg, r, ok := walkJSONRPCObject(dec)
	if !msg || !ok || !r.method || r.versions != 1 || r.methods != 1 || r.ids != 1 || r.otherCase ||
		!validJSONRPCID(r.id) {
		return msg, nil
	}
	if string(r.id) == "null" {
		return msg, nil
	}
	return msg, r.id
}

// jsonrpcMembers is what walkJSONRPCObject saw of an object's members.
type jsonrpcMembers struct {
	id        []byte // the value of the last member named "id"
	ids       int    // members named "id"
	versions  int    // members named "jsonrpc"
	methods   int    // members named "method"
	method    bool   // the last member "method" has a string value
	otherCase bool   // a member named "id", "jsonrpc" or "method" in another case
}

// walkJSONRPCObject reads the object at dec's position, member by member,
// and reports whether it has a "jsonrpc" member whose value is "2.0"
// (seen before anything malformed), what it saw, and whether the object
// was read whole and well-formed.
func walkJSONRPCObject(dec *json.Decoder) (msg bool, r jsonrpcMembers, ok bool) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false, r, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return msg, r, false
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return msg, r, false
		}
		switch {
		case key == "jsonrpc":
			var s string
			msg, r.versions = msg || json.Unmarshal(v, &s) == nil && s == "2.0", r.versions+1
		case key == "id":
			r.id, r.ids = v, r.ids+1
		case key == "method":
			r.method, r.methods = len(v) > 0 && v[0] == '"', r.methods+1
		case strings.EqualFold(key, "id") || strings.EqualFold(key, "jsonrpc") || strings.EqualFold(key, "method"):
			r.otherCase = true
		}
	}
	t, err := dec.Token()
	return msg, r, err == nil && t == json.Delim('}')
}

// validJSONRPCID reports whether raw, one JSON value, is an id the
// middleware may echo: null, a number, or a string of valid UTF-8, in at
// most maxJSONRPCIDLen bytes. Objects, arrays and booleans are not ids.
func validJSONRPCID(raw []byte) bool {
	if len(raw) == 0 || len(raw) > maxJSONRPCIDLen || !json.Valid(raw) {
		return false
	}
	switch c := raw[0]; {
	case c == '"':
		return utf8.Valid(raw)
	case c == '-' || c >= '0' && c <= '9':
		return true
	}
	return string(raw) == "null"
}
