package middleware

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/textcut"
)

// keepJSONRPCError answers a JSON-RPC request whose handler wrote an error
// status with a JSON-RPC error object (the JSON-RPC library's own: a parse
// error, an invalid request, an unsupported protocol version) with that
// object, sanitized: the same status, id and code, its message and every
// string of its data (keys included) through the sanitizer, nothing else
// of it (unknown members are dropped), the headers as [jsonrpcHeaders]
// keeps them. The client reads the error it would read without the
// middleware, minus what must not reach it. The error is recorded (span,
// counter, log) as the captured response classifies, as any other.
//
// It reports false, and does nothing, when the request is not JSON-RPC or
// the captured body is not whole or not a JSON-RPC error response (or a
// batch of them); the middleware then answers its own JSON-RPC error.
func (m *handler) keepJSONRPCError(rec *recorder, r *http.Request) bool {
	if rec.truncated || m.jsonrpcCallOf(rec, r, false) == nil {
		return false
	}
	body, ok := m.cleanJSONRPCErrors(rec.body)
	if !ok {
		return false
	}
	e, _ := m.fromCapture(rec, r)
	logged := m.complete(rec, r, e)
	h := rec.w.Header()
	allow := jsonrpcHeaders(h, rec.status)
	if allow != "" {
		h["Allow"] = []string{allow}
	}
	h["Content-Type"] = []string{"application/json"}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	h["Cache-Control"] = []string{"no-store"}
	h["X-Content-Type-Options"] = []string{"nosniff"}
	rec.capturing, rec.body, rec.started, rec.replaced = false, nil, true, true
	rec.w.WriteHeader(rec.status)
	_, _ = rec.w.Write(body) // a failed write means the client went away
	m.tel.record(rec, r, logged, rec.status, nil)
	return true
}

// cleanJSONRPCErrors returns body, a JSON-RPC error response or a
// non-empty batch of them, sanitized and encoded again, and whether it is
// one.
func (m *handler) cleanJSONRPCErrors(body []byte) ([]byte, bool) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return nil, false
	}
	if b[0] != '[' {
		return m.appendCleanJSONRPCError(make([]byte, 0, len(b)+64), b)
	}
	var items []json.RawMessage
	if json.Unmarshal(b, &items) != nil || len(items) == 0 {
		return nil, false
	}
	out := append(make([]byte, 0, len(b)+64), '[')
	for i, item := range items {
		if i > 0 {
			out = append(out, ',')
		}
		var ok bool
		if out, ok = m.appendCleanJSONRPCError(out, item); !ok {
			return nil, false
		}
	}
	return append(out, ']'), true
}

// jsonrpcErrorResponse is a JSON-RPC 2.0 error response as decoded.
type jsonrpcErrorResponse struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// appendCleanJSONRPCError appends raw, one JSON-RPC error response,
// sanitized, to dst, and reports whether raw is one: an object with an
// "error" object whose code is an integer and whose message is a string,
// no result, and a "jsonrpc" member, if any, of "2.0". An id that is not
// valid ([validJSONRPCID]) is answered as null.
func (m *handler) appendCleanJSONRPCError(dst, raw []byte) ([]byte, bool) {
	var resp jsonrpcErrorResponse
	if json.Unmarshal(raw, &resp) != nil {
		return nil, false
	}
	e := resp.Error
	if e == nil || e.Message == nil || resp.JSONRPC != nil && *resp.JSONRPC != "2.0" ||
		len(resp.Result) > 0 && string(resp.Result) != "null" {
		return nil, false
	}
	// The code must be a JSON number that is an integer: a decoder
	// would take "-32600", a string, for one.
	code, err := strconv.ParseInt(string(e.Code), 10, 64)
	if err != nil {
		return nil, false
	}
	id := []byte(resp.ID)
	if !validJSONRPCID(id) || string(id) == "null" {
		id = nil
	}
	var data []byte
	if len(e.Data) > 0 && string(e.Data) != "null" {
		if data, err = m.cleanJSONValue(e.Data); err != nil {
			return nil, false
		}
	}
	return appendJSONRPCError(dst, id, code, textcut.AtRune(m.hooks.Clean(*e.Message), toolerr.MaxDetailLen), data), true
}

// cleanJSONValue returns raw, one JSON value, with every string in it,
// object keys included, sanitized; numbers keep their spelling.
func (m *handler) cleanJSONValue(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(m.cleanValue(v))
}

// cleanValue returns v, a decoded JSON value, with every string in it
// sanitized.
func (m *handler) cleanValue(v any) any {
	switch x := v.(type) {
	case string:
		return m.hooks.Clean(x)
	case []any:
		for i := range x {
			x[i] = m.cleanValue(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[m.hooks.Clean(k)] = m.cleanValue(val)
		}
		return out
	}
	return v // json.Number, bool, nil
}
