package middleware

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"

	"github.com/toolerr/toolerr"
)

// plainJSONRPC is a JSON-RPC 2.0 service written by hand, as a team
// without an SDK writes one, whose every way of failing carries the
// planted text: its own JSON-RPC errors (a parse error, a refusal with
// data), a panic, a proxy's HTML page, a plain-text http.Error, a stack
// trace.
func plainJSONRPC(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	reply := func(status int, v string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Backend", "ledger-7.prod.internal")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, v)
	}
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if json.Unmarshal(body, &req) != nil {
		reply(http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":`+quoted("Parse error: "+rpcHostile)+`}}`)
		return
	}
	id := string(req.ID)
	switch req.Method {
	case "sum":
		reply(http.StatusOK, `{"jsonrpc":"2.0","id":`+id+`,"result":{"sum":3,"note":`+quoted(rpcDSN)+`}}`)
	case "refuse":
		reply(http.StatusUnprocessableEntity, `{"jsonrpc":"2.0","id":`+id+`,"extra":`+quoted(rpcSecret)+`,"error":{"code":-32012,"message":`+quoted(rpcHostile)+
			`,"data":{"field":"amount","minimum":1,"big":123456789012345678901234567890,"why":`+quoted(rpcHostile)+`,`+quoted(rpcSecret)+`:[`+quoted(rpcDSN)+`,true,null]}}}`)
	case "boom":
		panic("ledger: " + rpcSecret + " " + rpcDSN)
	case "proxy":
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, rpcHTML)
	case "unprocessable":
		http.Error(w, "amount must be positive; "+rpcHostile, http.StatusUnprocessableEntity)
	case "crash":
		http.Error(w, rpcStack, http.StatusInternalServerError)
	default:
		http.Error(w, "no such method "+rpcDSN, http.StatusNotFound)
	}
}

// rpcPost posts a JSON-RPC body as a plain JSON-RPC client does: JSON, no
// MCP header.
func rpcPost(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	return do(t, "POST", url, http.Header{"Content-Type": {"application/json"}}, body)
}

// TestPlainJSONRPCKeepsTheServicesErrors: a JSON-RPC service's own error
// objects keep their status, id and code, and their text, data included,
// is sanitized; nothing but jsonrpc, id and error is kept.
func TestPlainJSONRPCKeepsTheServicesErrors(t *testing.T) {
	url := serve(t, http.HandlerFunc(plainJSONRPC))

	resp, body := rpcPost(t, url, `{"jsonrpc":"2.0","id":11,"method":"refuse"}`)
	require.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	reply := rpcErrorReply(t, resp, body)
	assert.Equal(t, "11", string(reply.ID))
	assert.Equal(t, -32012, reply.Error.Code)
	assert.Contains(t, reply.Error.Message, "ledger failed", "the message is kept, cleaned")
	assert.Contains(t, reply.Error.Message, "[REDACTED:")
	assert.Empty(t, resp.Header.Get("X-Backend"), "the service's headers go")
	assert.True(t, toolerr.ValidRequestID(resp.Header.Get("X-Request-Id")))
	var data map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(reply.Error.Data, &data))
	assert.JSONEq(t, `"amount"`, string(data["field"]))
	assert.Equal(t, "123456789012345678901234567890", string(data["big"]), "numbers keep their spelling")
	assert.Contains(t, string(data["why"]), "ledger failed")

	// A malformed body: the service's parse error, id null, passes cleaned.
	resp, body = rpcPost(t, url, `{"jsonrpc":"2.0","id":12,"method":"sum","params":[1,`)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	reply = rpcErrorReply(t, resp, body)
	assert.Equal(t, "null", string(reply.ID))
	assert.Equal(t, jsonrpcParseError, reply.Error.Code)
	assert.True(t, strings.HasPrefix(reply.Error.Message, "Parse error: ledger failed"), reply.Error.Message)

	// A success passes untouched, whatever it holds.
	resp, body = rpcPost(t, url, `{"jsonrpc":"2.0","id":13,"method":"sum"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":13,"result":{"sum":3,"note":"`+rpcDSN+`"}}`, string(body))
}

// TestPlainJSONRPCAnswersItsOwnErrorsInJSONRPC: every error the middleware
// answers for a JSON-RPC request is a JSON-RPC error with the request's
// id, a code that fits, and the toolerr problem as its data.
func TestPlainJSONRPCAnswersItsOwnErrorsInJSONRPC(t *testing.T) {
	logger, logs := newLogger()
	url := serve(t, http.HandlerFunc(plainJSONRPC), WithLogger(logger))
	cases := []struct {
		method, id string
		status     int
		code       int
		problem    string
	}{
		{"boom", `"call-\u00e9\"7"`, 500, jsonrpcInternalError, toolerr.CodeInternal},
		{"boom", `1152921504606846977`, 500, jsonrpcInternalError, toolerr.CodeInternal},
		{"proxy", `21`, 503, jsonrpcInternalError, toolerr.CodeUpstreamUnavailable}, // nginx's 502: the upstream is down
		{"unprocessable", `22`, 422, jsonrpcInvalidParams, ""},
		{"crash", `23`, 500, jsonrpcInternalError, toolerr.CodeInternal},
		{"nosuch", `"x"`, 404, jsonrpcInvalidRequest, ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.id, func(t *testing.T) {
			resp, body := rpcPost(t, url, `{"jsonrpc":"2.0","method":"`+c.method+`","id":`+c.id+`}`)
			require.Equal(t, c.status, resp.StatusCode, "%s", body)
			reply := rpcErrorReply(t, resp, body)
			assert.Equal(t, c.id, string(reply.ID), "the request's id, verbatim")
			assert.Equal(t, c.code, reply.Error.Code)
			p := rpcProblem(t, resp, reply)
			if c.problem != "" {
				assert.Equal(t, c.problem, p["code"])
			}
			assert.Equal(t, p["detail"], reply.Error.Message)
			assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		})
	}
	var stacks int
	for _, rec := range logs.failures() {
		if strings.Contains(rec["stack"], "jsonrpc_plain_test.go") {
			stacks++
			assert.NotContains(t, rec["cause"], "hunter2hunter2")
		}
	}
	assert.Equal(t, 2, stacks, "each panic's stack goes to the log")
}

// TestPlainJSONRPCPanicTelemetry: a panic answered in JSON-RPC is recorded
// as any error of the middleware: on the span, in the counter, in the log.
func TestPlainJSONRPCPanicTelemetry(t *testing.T) {
	rig := newOtelRig(t)
	url := rig.underOtelhttp(t, http.HandlerFunc(plainJSONRPC))
	resp, body := rpcPost(t, url, `{"jsonrpc":"2.0","method":"boom","id":31}`)
	require.Equal(t, 500, resp.StatusCode)
	reply := rpcErrorReply(t, resp, body)
	p := rpcProblem(t, resp, reply)
	span := rig.span(t, "tool")
	assert.Equal(t, p["trace_id"], span.SpanContext().TraceID().String(), "the agent gets the trace id")
	a := attrs(attribute.NewSet(span.Attributes()...))
	assert.Equal(t, toolerr.CodeInternal, a["toolerr.code"])
	ev := attrs(attribute.NewSet(span.Events()[len(span.Events())-1].Attributes...))
	assert.Contains(t, ev["exception.stacktrace"], "jsonrpc_plain_test.go")
	assert.NotContains(t, ev["exception.stacktrace"], "hunter2hunter2")
	points := rig.counter(t, "toolerr.errors")
	require.Len(t, points, 1)
	assert.Equal(t, "500", attrs(points[0].Attributes)["http.response.status_code"])
	assert.EqualValues(t, 1, points[0].Value)
}

// TestPlainJSONRPCTool: a Tool adapter's error, and one handed over with
// ReportError, answer a JSON-RPC request in JSON-RPC too.
func TestPlainJSONRPCTool(t *testing.T) {
	reg := toolerr.Default()
	mux := http.NewServeMux()
	mux.Handle("/tool", Tool("transfer", func(w http.ResponseWriter, r *http.Request) error {
		return reg.New(toolerr.CodeValidationFailed, "amount must be positive, not "+rpcSecret).WithField("/params/amount")
	}))
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		ReportError(r.Context(), reg.New(toolerr.CodeRateLimited, ""))
	})
	url := serve(t, mux)

	resp, body := rpcPost(t, url+"/tool", `{"jsonrpc":"2.0","method":"transfer","id":"t-1","params":{"amount":-5}}`)
	reply := rpcErrorReply(t, resp, body)
	assert.Equal(t, `"t-1"`, string(reply.ID))
	p := rpcProblem(t, resp, reply)
	assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
	assert.Equal(t, "transfer", p["tool"])
	assert.Equal(t, "/params/amount", p["field"])
	assert.EqualValues(t, resp.StatusCode, mustInt(t, p["status"]))

	resp, body = rpcPost(t, url+"/report", `{"jsonrpc":"2.0","method":"quote","id":3}`)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	reply = rpcErrorReply(t, resp, body)
	assert.Equal(t, "3", string(reply.ID))
	assert.Equal(t, jsonrpcInvalidRequest, reply.Error.Code)
	assert.Equal(t, toolerr.CodeRateLimited, rpcProblem(t, resp, reply)["code"])
	assert.NotEmpty(t, resp.Header.Get("Retry-After"), "the wait the problem gives is in Retry-After, as for HTTP")
}

func mustInt(t *testing.T, v any) int64 {
	t.Helper()
	n, err := v.(json.Number).Int64()
	require.NoError(t, err)
	return n
}

// TestNonJSONRPCKeepsProblemJSON: the same service and tools, called
// without JSON-RPC, answer problem+json as before.
func TestNonJSONRPCKeepsProblemJSON(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/rpc", plainJSONRPC)
	mux.Handle("/tool", Tool("transfer", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "amount must be positive")
	}))
	url := serve(t, mux)
	for _, c := range []struct {
		target, ct, body string
	}{
		{"/rpc", "application/json", `{"amount":5}`},                          // JSON, not JSON-RPC
		{"/rpc", "application/json", `{"id":1,"method":"boom"}`},              // no "jsonrpc":"2.0"
		{"/rpc", "application/json", `{"jsonrpc":"1.0","id":1,"method":"x"}`}, // JSON-RPC 1.0
		{"/rpc", "text/plain", `{"jsonrpc":"2.0","id":1,"method":"proxy"}`},   // not sent as JSON
		{"/rpc", "application/json", `not json`},                              // nothing says JSON-RPC
		{"/tool", "application/json", `{"amount":-5}`},
		{"/tool", "", ``},
	} {
		resp, body := do(t, "POST", url+c.target, http.Header{"Content-Type": {c.ct}}, c.body)
		assert.GreaterOrEqual(t, resp.StatusCode, 400)
		assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"), "%s %q", c.target, c.body)
		problem(t, body)
	}
	resp, body := do(t, "GET", url+"/rpc", nil, "")
	assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
	problem(t, body)
}
