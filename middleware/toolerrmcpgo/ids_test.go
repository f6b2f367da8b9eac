package toolerrmcpgo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// idCalls are three failing calls, one per path a failure takes (a
// returned Go error, a returned *toolerr.Error, a panic); each note finds
// its exchange on the wire.
//
// That each call of a streamable HTTP session carries the ids of its own
// POST, and an intent only its own call's, the conformance suite checks
// (conformance_test.go); the tests here are mcp-go's own paths: SSE, no
// middleware, in process.
var idCalls = []struct{ tool, note string }{
	{"db_down", "call-one"},
	{"refund_order", "call-two"},
	{"nil_map", "call-three"},
}

// TestClientChosenRequestID: a client that sends its own clean
// X-Request-Id on every POST gets it in each failure, as the middleware's
// policy keeps it; one holding a key, or forged ids in the headers the
// middleware writes, are never taken.
func TestClientChosenRequestID(t *testing.T) {
	for _, tc := range []struct {
		name, id string
		kept     bool
	}{
		{"a clean id", "agent-call-0042", true},
		{"an id holding a live key", "req_sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, noRecovery, nil)
			w := newWire(http.Header{
				"X-Request-Id":           {tc.id},
				reqscope.HeaderRequestID: {"forged-id-1"},
				reqscope.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
			})
			a := connectMCPGo(t, r.url+"/mcp-session", w, legacy)
			res, err := a.call(t, "db_down", map[string]any{"note": "forged"})
			require.NoError(t, err)
			p := problemOf(t, res)
			ex := w.callWith(t, "forged")
			assert.Equal(t, ex.header.Get("X-Request-Id"), p["request_id"])
			assert.Equal(t, tc.kept, p["request_id"] == tc.id, "%v", p["request_id"])
			assert.NotEqual(t, "forged-id-1", p["request_id"])
			assert.NotEqual(t, "0af7651916cd43dd8448eb211c80319c", p["trace_id"])
		})
	}
}

// TestWithoutTheHTTPMiddleware: a streamable HTTP server that no toolerr
// middleware serves takes nothing from a client's headers, not even ones
// shaped like the middleware's: each call gets a new request id and no
// trace id.
func TestWithoutTheHTTPMiddleware(t *testing.T) {
	logger, _ := newLogger()
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(logger)})
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithStateful(true)))
	t.Cleanup(srv.Close)
	w := newWire(http.Header{
		reqscope.HeaderRequestID: {"forged-id-1"},
		reqscope.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
		"X-Request-Id":           {"agent-call-0042"},
		"Traceparent":            {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
	})
	a := connectMCPGo(t, srv.URL, w, legacy)
	ids := map[string]bool{}
	for _, c := range idCalls {
		res, err := a.call(t, c.tool, map[string]any{"order_id": "ord_1"})
		require.NoError(t, err)
		p := problemOf(t, res)
		id, _ := p["request_id"].(string)
		assert.Regexp(t, `^[0-9a-f]{32}$`, id, "a new id, not a client's")
		assert.NotContains(t, p, "trace_id")
		ids[id] = true
	}
	assert.Len(t, ids, len(idCalls), "one request id per call")
}

// TestInProcessCallKeepsTheContextsIDs: a call handed to the server in
// process (stdio's path), under a context that holds a request scope,
// carries that scope's ids.
func TestInProcessCallKeepsTheContextsIDs(t *testing.T) {
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)})
	ctx := reqscope.New(context.Background(), "inproc-call-42", "4bf92f3577b34da6a3ce929d0e0e4736")
	a := handle(t, ctx, s, callMessage("db_down", map[string]any{}))
	require.Nil(t, a.Error)
	p := problemOf(t, a.Result)
	assert.Equal(t, "inproc-call-42", p["request_id"])
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", p["trace_id"])
}
