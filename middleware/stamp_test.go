package middleware

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// stampSeen is what a handler behind New saw of one request.
type stampSeen struct {
	header       http.Header
	ctxID, trace string
}

// serveStamped serves req with New(opts...) around a handler that notes
// its request's headers and context ids, and returns them with the
// response's X-Request-Id.
func serveStamped(t *testing.T, req *http.Request, opts ...Option) (stampSeen, string) {
	t.Helper()
	var seen stampSeen
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = stampSeen{header: r.Header.Clone(), ctxID: toolerr.RequestID(r.Context()), trace: toolerr.TraceID(r.Context())}
		w.WriteHeader(http.StatusNoContent)
	})
	rec := httptest.NewRecorder()
	New(append([]Option{WithLogger(quiet)}, opts...)...)(h).ServeHTTP(rec, req)
	require.NotNil(t, seen.header, "the handler ran")
	return seen, rec.Header().Get("X-Request-Id")
}

// TestStampTellsTheHandlerTheIDs: the request the middleware passes on
// carries its request id (the response's X-Request-Id) and trace id in
// toolerr's two headers and in X-Request-Id, whatever the client sent in
// them; every other header is as the client sent it.
func TestStampTellsTheHandlerTheIDs(t *testing.T) {
	const clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	traceparent := "00-" + clientTrace + "-00f067aa0ba902b7-01"
	tp := sdktrace.NewTracerProvider()
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	spanCtx, span := tp.Tracer("test").Start(context.Background(), "request")
	t.Cleanup(func() { span.End() })

	for _, tc := range []struct {
		name   string
		ctx    context.Context
		header http.Header
		opts   []Option
		trace  string // the trace id the handler must be told; "" for none
	}{
		{name: "nothing sent", ctx: context.Background()},
		{name: "a clean id", ctx: context.Background(), header: http.Header{"X-Request-Id": {"agent-call-0042"}}},
		{name: "a clean id, GenerateAlways", ctx: context.Background(), header: http.Header{"X-Request-Id": {"agent-call-0042"}}, opts: []Option{WithRequestIDPolicy(GenerateAlways)}},
		{name: "an id holding a key", ctx: context.Background(), header: http.Header{"X-Request-Id": {"req_sk_live_4eC39HqLyjWDarjtT1zdp7dc"}}},
		{name: "a traceparent", ctx: context.Background(), header: http.Header{"Traceparent": {traceparent}}, trace: clientTrace},
		{name: "a span, and another trace's traceparent", ctx: spanCtx, header: http.Header{"Traceparent": {traceparent}}, trace: span.SpanContext().TraceID().String()},
		{name: "forged toolerr headers, no trace", ctx: context.Background(), header: http.Header{
			reqscope.HeaderRequestID: {"forged-id-1"}, reqscope.HeaderTraceID: {clientTrace},
		}},
		{name: "forged toolerr headers, several values, a span", ctx: spanCtx, header: http.Header{
			reqscope.HeaderRequestID: {"forged-id-1", "forged-id-2"}, reqscope.HeaderTraceID: {clientTrace, clientTrace},
		}, trace: span.SpanContext().TraceID().String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequestWithContext(tc.ctx, http.MethodPost, "/tools/x", nil)
			for k, v := range tc.header {
				req.Header[k] = v
			}
			seen, responseID := serveStamped(t, req, tc.opts...)
			require.True(t, toolerr.ValidRequestID(responseID), responseID)
			assert.Equal(t, []string{responseID}, seen.header.Values(reqscope.HeaderRequestID), "the response's id, alone")
			assert.Equal(t, responseID, seen.ctxID)
			assert.Equal(t, tc.trace, seen.trace, "the context's trace id")
			if tc.trace == "" {
				assert.NotContains(t, seen.header, reqscope.HeaderTraceID, "no trace id: none told, a client's removed")
			} else {
				assert.Equal(t, []string{tc.trace}, seen.header.Values(reqscope.HeaderTraceID))
			}
			// X-Request-Id is the request's id too, whatever the client
			// sent: a request-id middleware behind this one, or a handler
			// forwarding it, uses the id the client sees (a client's id
			// holding a key is not passed on).
			assert.Equal(t, []string{responseID}, seen.header.Values("X-Request-Id"))
			for k, v := range tc.header {
				if k != reqscope.HeaderRequestID && k != reqscope.HeaderTraceID && k != "X-Request-Id" {
					assert.Equal(t, v, seen.header.Values(k), "%s as the client sent it", k)
				}
			}
		})
	}
}

// TestStampWithoutHeaders: a request built by hand, with no header map,
// is stamped too, without a panic.
func TestStampWithoutHeaders(t *testing.T) {
	req := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/tools/x"}}
	seen, responseID := serveStamped(t, req)
	assert.Equal(t, responseID, seen.header.Get(reqscope.HeaderRequestID))
}

// TestStampOnceWhenMountedTwice: the inner middleware steps aside, and the
// handler is told the outer one's ids.
func TestStampOnceWhenMountedTwice(t *testing.T) {
	var seen http.Header
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		w.WriteHeader(http.StatusNoContent)
	})
	rec := httptest.NewRecorder()
	New(WithLogger(quiet))(New(WithLogger(quiet))(h)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/x", nil))
	assert.Equal(t, []string{rec.Header().Get("X-Request-Id")}, seen.Values(reqscope.HeaderRequestID))
}

// TestStampSpan: the traceparent of the request's span reaches the code
// behind the middleware on a request that may carry JSON-RPC, and a
// client's forged value never passes, on any request.
func TestStampSpan(t *testing.T) {
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
	forged := "00-11111111111111111111111111111111-2222222222222222-01"
	for _, tc := range []struct {
		name    string
		jsonrpc bool
		span    bool
		want    string
	}{
		{"JSON-RPC with a span", true, true, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
		{"JSON-RPC without a span", true, false, ""},
		{"not JSON-RPC, with a span", false, true, ""},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if tc.span {
			r = r.WithContext(trace.ContextWithSpanContext(r.Context(), sc))
		}
		r.Header.Set(reqscope.HeaderTraceparent, forged)
		stampSpan(r, tc.jsonrpc)
		assert.Equal(t, tc.want, r.Header.Get(reqscope.HeaderTraceparent), tc.name)
	}
}
