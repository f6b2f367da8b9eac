package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// idCalls are three failing calls, one per path a failure takes (a
// returned Go error, a returned *toolerr.Error, a panic); each note finds
// its exchange on the wire.
var idCalls = []struct{ tool, note string }{
	{"db_down", "call-one"},
	{"refund_order", "call-two"},
	{"nil_map", "call-three"},
}

// TestEachCallCarriesItsPOSTsIDs: three failing calls of one client,
// through otelhttp and toolerr's middleware, for every Go client and both
// of mcp-go's streamable modes. Each failure's request_id (problem object,
// text, log record) is the X-Request-Id of the POST that carried the
// call, and its trace_id the trace of that POST's server span: never the
// ids of another request of the session.
func TestEachCallCarriesItsPOSTsIDs(t *testing.T) {
	for _, path := range []string{"/mcp", "/mcp-session"} {
		for _, kind := range goClients {
			t.Run(kind.name+" "+path, func(t *testing.T) {
				r := newRig(t, noRecovery, nil)
				w := newWire(nil)
				a := kind.connect(t, r.url+path, w)
				if path == "/mcp-session" && kind.legacy {
					require.NotEmpty(t, a.session(), "a stateful session")
				}
				ids, traces := map[string]bool{}, map[string]bool{}
				for _, c := range idCalls {
					before := len(r.logs.failures(t))
					res, err := a.call(t, c.tool, map[string]any{"order_id": "ord_1", "note": c.note})
					require.NoError(t, err)
					p := problemOf(t, res)
					ex := w.callWith(t, c.note)
					id := ex.header.Get("X-Request-Id")
					require.True(t, toolerr.ValidRequestID(id), "X-Request-Id %q", id)
					assert.Equal(t, id, p["request_id"], "request_id is the X-Request-Id of the call's POST")
					assert.Contains(t, textOf(t, res), "\nrequest_id: "+id, "the text names the request")
					span := r.serverSpan(t, ex.probe)
					assert.Equal(t, span.TraceID().String(), p["trace_id"], "trace_id is the trace of the POST's server span")
					recs := r.logs.failures(t)[before:]
					require.Len(t, recs, 1, "one log record for the call")
					assert.Equal(t, id, recs[0]["request_id"])
					assert.Equal(t, p["trace_id"], recs[0]["trace_id"])
					ids[id], traces[span.TraceID().String()] = true, true
				}
				assert.Len(t, ids, len(idCalls), "one request id per call")
				assert.Len(t, traces, len(idCalls), "one trace per POST")
				for _, ex := range w.exchanges() {
					if !bytes.Contains(ex.request, []byte(`"tools/call"`)) {
						assert.NotContains(t, ids, ex.header.Get("X-Request-Id"), "no call carries another request's id")
					}
				}
			})
		}
	}
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
				"X-Request-Id":          {tc.id},
				toolerr.HeaderRequestID: {"forged-id-1"},
				toolerr.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
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

// TestIntentStaysWithItsCall: what a handler records with
// toolerr.RecordIntent belongs to its call, stateless or stateful: a call
// that times out after recording an intent carries it, and the next one,
// which records none, carries none.
func TestIntentStaysWithItsCall(t *testing.T) {
	for _, path := range []string{"/mcp", "/mcp-session"} {
		t.Run(path, func(t *testing.T) {
			r := newRig(t, noRecovery, nil)
			a := connectSDK(t, r.url+path, newWire(nil), legacy)
			res, err := a.call(t, "label_timeout", nil)
			require.NoError(t, err)
			p := problemOf(t, res)
			assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
			intent, _ := p["intent"].(map[string]any)
			assert.Equal(t, "L-77", intent["resource_id"], "the call's own intent")
			assert.Contains(t, textOf(t, res), "L-77", "the text carries the intent")

			res, err = a.call(t, "quote_timeout", nil)
			require.NoError(t, err)
			p = problemOf(t, res)
			assert.NotContains(t, p, "intent", "another call's intent")
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
		toolerr.HeaderRequestID: {"forged-id-1"},
		toolerr.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
		"X-Request-Id":          {"agent-call-0042"},
		"Traceparent":           {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
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
	ctx := toolerr.NewRequestContext(context.Background(), "inproc-call-42", "4bf92f3577b34da6a3ce929d0e0e4736")
	a := handle(t, ctx, s, callMessage("db_down", map[string]any{}))
	require.Nil(t, a.Error)
	p := problemOf(t, a.Result)
	assert.Equal(t, "inproc-call-42", p["request_id"])
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", p["trace_id"])
}
