package middleware

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func TestRPCRequestRecognised(t *testing.T) {
	cases := []struct {
		method, target string
		header         map[string]string
		want           bool
	}{
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "application/grpc"}, true},
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "application/grpc+proto"}, true},
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "Application/GRPC-Web+proto"}, true},
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "application/grpc-web-text"}, true},
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "application/connect+json"}, true},
		{"POST", "/svc.v1.Orders/Get", map[string]string{"Content-Type": "application/json", "Connect-Protocol-Version": "1"}, true},
		{"GET", "/svc.v1.Orders/Get?connect=v1&encoding=json&message=%7B%7D", nil, true},
		{"POST", "/tools/refund", map[string]string{"Content-Type": "application/json"}, false},
		{"POST", "/tools/refund", map[string]string{"Content-Type": "application/grpcx"}, false},
		{"POST", "/tools/refund", map[string]string{"Content-Type": "application/connect+"}, false},
		{"GET", "/tools/search?q=connect=v1", nil, false},
		{"POST", "/tools/search?connect=v1", nil, false},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.target, nil)
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		assert.Equal(t, c.want, rpcRequest(r, r.Header.Get("Content-Type")), "%s %s %v", c.method, c.target, c.header)
	}
}

// TestRPCResponsesPassThrough: the error answers of Connect and gRPC keep
// their wire format (a replaced body breaks the client, which reads the
// code from it), while the request still gets its ids.
func TestRPCResponsesPassThrough(t *testing.T) {
	const connectErr = `{"code":"not_found","message":"order 7 not found"}`
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.True(t, toolerr.ValidRequestID(toolerr.RequestID(r.Context())))
		if rpcRequest(r, r.Header.Get("Content-Type")) {
			assert.False(t, ReportError(r.Context(), toolerr.Default().New(toolerr.CodeNotFound, "")))
		}
		if r.Header.Get("Content-Type") == "application/grpc" {
			w.Header().Set("Content-Type", "application/grpc")
			w.Header().Set("Grpc-Status", "5")
			w.WriteHeader(http.StatusOK)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(connectErr))
	})
	url := serve(t, h)
	resp, body := do(t, "POST", url+"/svc.v1.Orders/Get", http.Header{"Content-Type": {"application/json"}, "Connect-Protocol-Version": {"1"}}, "{}")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.JSONEq(t, connectErr, string(body))
	assert.True(t, toolerr.ValidRequestID(resp.Header.Get("X-Request-Id")))

	resp, _ = do(t, "POST", url+"/svc.v1.Orders/Get", http.Header{"Content-Type": {"application/grpc"}}, "")
	assert.Equal(t, "5", resp.Header.Get("Grpc-Status"))

	// The same JSON error on a plain HTTP tool call is replaced.
	resp, body = do(t, "POST", url+"/tools/get", http.Header{"Content-Type": {"application/json"}}, "{}")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, toolerr.CodeNotFound, problem(t, body)["code"])
}

// TestRPCPanicIsNotRenderedAsProblem: a panic in an RPC handler goes where
// it would go without the middleware (net/http aborts the connection);
// a problem+json body would be read by the client as a broken message.
func TestRPCPanicIsNotRenderedAsProblem(t *testing.T) {
	h := New(WithLogger(quiet))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	r := httptest.NewRequest("POST", "/svc.v1.Orders/Get", nil)
	r.Header.Set("Content-Type", "application/grpc")
	assert.PanicsWithValue(t, "boom", func() { h.ServeHTTP(httptest.NewRecorder(), r) })
}
