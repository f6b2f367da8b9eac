package mcptool_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// hsMCPRoutes are the MCP endpoints of the stack, all serving server: the
// streamable HTTP handler stateless and stateful, each answering in SSE or
// in JSON, and the older SSE transport.
func hsMCPRoutes(server *mcp.Server) map[string]http.Handler {
	get := func(*http.Request) *mcp.Server { return server }
	streamable := func(o mcp.StreamableHTTPOptions) http.Handler { return mcp.NewStreamableHTTPHandler(get, &o) }
	return map[string]http.Handler{
		"/mcp":              streamable(mcp.StreamableHTTPOptions{Stateless: true}),
		"/mcp-json":         streamable(mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}),
		"/mcp-session":      streamable(mcp.StreamableHTTPOptions{}),
		"/mcp-session-json": streamable(mcp.StreamableHTTPOptions{JSONResponse: true}),
		"/mcp-sse":          mcp.NewSSEHandler(get, nil),
	}
}

// hsCalls are three failing calls, one per path a failure takes: a wrapped
// tool's error, a typed tool's error completed by mcptool.Middleware, and
// a panic of an unwrapped tool caught by mcptool.Middleware. Each call's
// note finds its exchange on the wire.
var hsCalls = []struct{ tool, note string }{
	{"benign_detail", "call-one"},
	{"hostile_typed", "call-two"},
	{"unwrapped_panic", "call-three"},
}

// hsCallIDs is what one failed call carried.
type hsCallIDs struct {
	requestID, traceID string
	ex                 *hsExchange
}

// callEach makes the calls of hsCalls in one session and returns, for each,
// the ids of its problem object after checking that its text line and its
// log record carry the same.
func (rig *hsRig) callEach(t *testing.T, cs *mcp.ClientSession, wire *hsWire) []hsCallIDs {
	t.Helper()
	var out []hsCallIDs
	for _, c := range hsCalls {
		before := len(rig.records(t))
		res := call(t, cs, c.tool, hsArgs{Note: c.note})
		require.True(t, res.IsError, "%s fails", c.tool)
		p := problem(t, res)
		id, _ := p["request_id"].(string)
		require.True(t, toolerr.ValidRequestID(id), "request_id %q", id)
		traceID, _ := p["trace_id"].(string)
		lines := text(t, res)
		require.Len(t, lines, 1)
		assert.Contains(t, lines[0], "\nrequest_id: "+id, "the text a model reads names the request")
		var recs []map[string]any
		for _, rec := range rig.records(t)[before:] {
			if rec["msg"] == "toolerr: MCP tool call failed" {
				recs = append(recs, rec)
			}
		}
		require.Len(t, recs, 1, "the call of %s wrote one log record", c.tool)
		assert.Equal(t, id, recs[0]["request_id"], "the log record carries the call's request id")
		assert.Equal(t, traceID, recs[0]["trace_id"], "and its trace id")
		out = append(out, hsCallIDs{requestID: id, traceID: traceID, ex: wire.exchangeWith(t, c.note)})
	}
	return out
}

// serverSpan returns the span context of otelhttp's server span of the
// request probed probe, once the span recorder has it.
func (rig *hsRig) serverSpan(t *testing.T, probe string) trace.SpanContext {
	t.Helper()
	v, ok := rig.spanOf.Load(probe)
	require.True(t, ok, "the request %s reached the router", probe)
	sc := v.(trace.SpanContext)
	require.True(t, sc.IsValid(), "otelhttp started a span for %s", probe)
	require.Eventually(t, func() bool {
		for _, s := range rig.spans.Ended() {
			if s.SpanContext().SpanID() == sc.SpanID() && s.SpanKind() == trace.SpanKindServer {
				return true
			}
		}
		return false
	}, 5*time.Second, 10*time.Millisecond, "the recorder has the server span of %s", probe)
	return sc
}

// exchangeWith returns the one tools/call exchange whose request holds note.
func (w *hsWire) exchangeWith(t *testing.T, note string) *hsExchange {
	t.Helper()
	var found *hsExchange
	for _, ex := range w.exchanges() {
		if bytes.Contains(ex.request, []byte(`"tools/call"`)) && bytes.Contains(ex.request, []byte(note)) {
			require.Nil(t, found, "one exchange carried %s", note)
			found = ex
		}
	}
	require.NotNil(t, found, "no exchange carried %s", note)
	return found
}

// otherIDs returns the X-Request-Id of every exchange on the wire that is
// not a tools/call.
func (w *hsWire) otherIDs() []string {
	var out []string
	for _, ex := range w.exchanges() {
		if !bytes.Contains(ex.request, []byte(`"tools/call"`)) {
			out = append(out, ex.header.Get("X-Request-Id"))
		}
	}
	return out
}

// TestMCPOverHTTPEachCallCarriesItsPOSTsIDs: three failing tools/call
// POSTs of one session, through otelhttp, chi and toolerr's middleware,
// for every streamable HTTP mode. Each failure's request_id (problem
// object, text line, log record) is the X-Request-Id of the POST that
// carried the call, and its trace_id is the trace of that POST's server
// span: never the ids of the session's first request, which the SDK runs
// every handler of a stateful session under.
func TestMCPOverHTTPEachCallCarriesItsPOSTsIDs(t *testing.T) {
	rig := newHSRig(t)
	for _, tc := range []struct{ name, path, media string }{
		{"stateful, answers in SSE", "/mcp-session", "text/event-stream"},
		{"stateful, answers in JSON", "/mcp-session-json", "application/json"},
		{"stateless, answers in SSE", "/mcp", "text/event-stream"},
		{"stateless, answers in JSON", "/mcp-json", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, wire := rig.mcpSession(t, tc.path)
			ids, traces := map[string]bool{}, map[string]bool{}
			for _, c := range rig.callEach(t, cs, wire) {
				assert.Equal(t, tc.media, c.ex.header.Get("Content-Type"), "the POST's answer")
				header := c.ex.header.Get("X-Request-Id")
				assert.Equal(t, header, c.requestID, "request_id is the X-Request-Id of the call's POST")
				chiID, _ := rig.chiIDs.Load(c.ex.probe)
				assert.Equal(t, chiID, header, "which is chi's id of that POST")
				span := rig.serverSpan(t, c.ex.probe)
				assert.Equal(t, span.TraceID().String(), c.traceID, "trace_id is the trace of the POST's server span")
				ids[c.requestID], traces[c.traceID] = true, true
			}
			assert.Len(t, ids, len(hsCalls), "one request id per call")
			assert.Len(t, traces, len(hsCalls), "each POST is a trace of its own")
			for _, other := range wire.otherIDs() {
				assert.NotContains(t, ids, other, "no call carries the id of another request of the session")
			}
		})
	}
}

// TestMCPOverHTTPClientChosenIDs: a client that sends its own X-Request-Id
// and traceparent on every POST gets, in each failure, what the response
// header and the server span of that POST say, by the middleware's rule: a
// clean id of the client's is kept, any other replaced; the trace is the
// server span's, which continues the client's trace when otelhttp
// propagates it and starts another when it does not.
func TestMCPOverHTTPClientChosenIDs(t *testing.T) {
	const clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	header := func(id string) http.Header {
		return http.Header{
			"X-Request-Id":           {id},
			"Traceparent":            {"00-" + clientTrace + "-00f067aa0ba902b7-01"},
			reqscope.HeaderRequestID: {"forged-id-1"},
			reqscope.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
		}
	}
	for _, propagate := range []bool{true, false} {
		var opts []otelhttp.Option
		if propagate {
			opts = append(opts, otelhttp.WithPropagators(propagation.TraceContext{}))
		}
		rig := newHSRig(t, opts...)
		for _, tc := range []struct {
			name, path, clientID string
			kept                 bool
		}{
			{"a clean id, stateful", "/mcp-session", "agent-call-0042", true},
			{"a clean id, stateless", "/mcp", "agent-call-0043", true},
			{"an id holding a key, stateful", "/mcp-session", "req_" + hsStripe, false},
			{"an id too long, stateful JSON", "/mcp-session-json", strings.Repeat("a", 129), false},
		} {
			t.Run(fmt.Sprintf("%s, propagated %v", tc.name, propagate), func(t *testing.T) {
				cs, wire := rig.mcpSessionWith(t, tc.path, header(tc.clientID))
				ids := map[string]bool{}
				for _, c := range rig.callEach(t, cs, wire) {
					got := c.ex.header.Get("X-Request-Id")
					assert.Equal(t, got, c.requestID, "request_id is the X-Request-Id of the call's POST")
					if tc.kept {
						assert.Equal(t, tc.clientID, got)
					} else {
						assert.NotEqual(t, tc.clientID, got)
					}
					span := rig.serverSpan(t, c.ex.probe)
					assert.Equal(t, span.TraceID().String(), c.traceID, "trace_id is the trace of the POST's server span")
					assert.Equal(t, propagate, span.TraceID().String() == clientTrace, "otelhttp continued the client's trace")
					ids[c.requestID] = true
				}
				if !tc.kept {
					assert.Len(t, ids, len(hsCalls), "one request id per call")
				}
			})
		}
	}
}

// TestMCPOverSSEEachCallGetsAFreshID: the older SSE transport runs every
// call on the session's stream, the long GET, and tells a handler nothing
// of the POST that carried it. Each failure gets a request id of its own,
// not the GET's nor any POST's, and no trace id rather than the GET's.
func TestMCPOverSSEEachCallGetsAFreshID(t *testing.T) {
	rig := newHSRig(t)
	wire := &hsWire{rig: rig, base: &http.Transport{}}
	cs := rig.mcpConnect(t, wire, &mcp.SSEClientTransport{Endpoint: rig.url + "/mcp-sse", HTTPClient: &http.Client{Transport: wire}})
	ids := map[string]bool{}
	for _, c := range rig.callEach(t, cs, wire) {
		assert.Empty(t, c.traceID, "no trace id is carried over from the stream's request")
		ids[c.requestID] = true
	}
	assert.Len(t, ids, len(hsCalls), "one request id per call")
	for _, ex := range wire.exchanges() {
		assert.NotContains(t, ids, ex.header.Get("X-Request-Id"), "no call carries the id of a request of the session")
	}
}

// hsIntentTools adds the tools of TestMCPOverHTTPIntentStaysWithItsCall:
// record_intent records an intent and succeeds; times_out times out,
// after recording an intent when its note is "own".
func hsIntentTools(s *mcp.Server, opt mcptool.Option) {
	mcptool.AddTool(s, &mcp.Tool{Name: "record_intent"}, func(ctx context.Context, _ *mcp.CallToolRequest, in hsArgs) (*mcp.CallToolResult, any, error) {
		toolerr.RecordIntent(ctx, "create_label", "L-"+in.Note, "submitted", "GET /labels/L-"+in.Note)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}, opt)
	mcptool.AddTool(s, &mcp.Tool{Name: "times_out"}, func(ctx context.Context, _ *mcp.CallToolRequest, in hsArgs) (*mcp.CallToolResult, any, error) {
		if in.Note == "own" {
			toolerr.RecordIntent(ctx, "create_label", "L-own", "submitted", "GET /labels/L-own")
		}
		return nil, nil, fmt.Errorf("label service: %w", context.DeadlineExceeded)
	}, opt)
}

// TestMCPOverHTTPIntentStaysWithItsCall: what a handler records with
// toolerr.RecordIntent belongs to its call. In a stateful session, where
// every handler runs under the context of the session's first request, a
// call that times out never carries an intent another call recorded, and
// one that recorded its own carries that.
func TestMCPOverHTTPIntentStaysWithItsCall(t *testing.T) {
	rig := newHSRig(t)
	for _, path := range []string{"/mcp-session", "/mcp"} {
		t.Run(path, func(t *testing.T) {
			cs, _ := rig.mcpSession(t, path)
			res := call(t, cs, "record_intent", hsArgs{Note: "other"})
			require.False(t, res.IsError)

			p := problem(t, call(t, cs, "times_out", hsArgs{}))
			assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
			assert.NotContains(t, p, "intent", "another call's intent")

			p = problem(t, call(t, cs, "times_out", hsArgs{Note: "own"}))
			intent, _ := p["intent"].(map[string]any)
			assert.Equal(t, "L-own", intent["resource_id"], "the call's own intent")
		})
	}
}

// TestMCPOverHTTPWithoutTheMiddleware: a streamable HTTP server that no
// toolerr middleware serves takes nothing from a client's headers, not
// even ones shaped like the middleware's: each call gets a new request id
// and no trace id.
func TestMCPOverHTTPWithoutTheMiddleware(t *testing.T) {
	logger, _ := newLogger()
	srv := httptest.NewServer(hsMCPRoutes(hsMCPServer(logger))["/mcp-session"])
	t.Cleanup(srv.Close)
	rig := &hsRig{url: srv.URL}
	forged := http.Header{
		reqscope.HeaderRequestID: {"forged-id-1"},
		reqscope.HeaderTraceID:   {"0af7651916cd43dd8448eb211c80319c"},
		"X-Request-Id":           {"agent-call-0042"},
	}
	wire := &hsWire{rig: rig, base: &http.Transport{}, header: forged}
	cs := rig.mcpConnect(t, wire, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: wire}})
	ids := map[string]bool{}
	for _, c := range hsCalls {
		p := problem(t, call(t, cs, c.tool, hsArgs{Note: c.note}))
		id, _ := p["request_id"].(string)
		assert.Regexp(t, hexID, id, "a new id, not a client's")
		assert.NotContains(t, p, "trace_id")
		ids[id] = true
	}
	assert.Len(t, ids, len(hsCalls), "one request id per call")
}
