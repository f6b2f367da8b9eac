package middleware

import (
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
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
	if len(ct) <= len(app) || !asciifold.HasPrefix(ct, app) {
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
// not one. It is asked on the error path only; the answers are kept in
// the request's failure state. The body decides whether a request the
// headers leave open (hintBody) is JSON-RPC; with needCall, it is also
// read for the id and the parse error, which only an error the middleware
// renders needs: keeping a library's own JSON-RPC error of an MCP request
// reads nothing. The body is the one the handler read, and what it left
// unread up to [maxJSONRPCBody], read now (as net/http reads it before
// replying), unless the client waits for a 100 Continue the server has
// not sent.
func (m *handler) jsonrpcCallOf(rec *recorder, r *http.Request, needCall bool) *jsonrpcCall {
	if rec.jsonrpc == hintNone {
		return nil
	}
	f := rec.failure()
	if f.rpcState == rpcUnknown {
		f.rpcState = rpcIs
		if rec.jsonrpc == hintBody && !scanJSONRPCBody(f, rec, r) {
			f.rpcState = rpcNot
		}
	}
	if f.rpcState != rpcIs {
		return nil
	}
	if needCall && !f.rpcScanned {
		scanJSONRPCBody(f, rec, r)
	}
	return &f.rpc
}

// scanJSONRPCBody reads the request's body into f.rpc and reports whether
// it starts as a JSON-RPC message.
func scanJSONRPCBody(f *failure, rec *recorder, r *http.Request) bool {
	// A client that sent Expect: 100-continue sends the body once the
	// server reads it: asked for by the handler, or not at all.
	readRest := !strings.EqualFold(canonheader.Value(r.Header, "Expect"), "100-continue") ||
		rec.reqBody != nil && len(rec.reqBody.kept) > 0
	body, whole := rec.reqBody.body(readRest)
	msg, call := scanJSONRPC(body, whole)
	f.rpc, f.rpcScanned = call, true
	return msg
}

// What the failure state knows of the request as JSON-RPC.
const (
	rpcUnknown uint8 = iota // not asked yet
	rpcNot                  // not a JSON-RPC request
	rpcIs                   // a JSON-RPC request
)
