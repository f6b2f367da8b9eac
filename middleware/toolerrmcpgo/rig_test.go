package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// rig is one mcp-go server served as production serves it: otelhttp (the
// real OpenTelemetry SDK, spans recorded) around toolerr's middleware
// around mcp-go's streamable HTTP server, stateless at /mcp and stateful
// at /mcp-session, and its SSE server at /sse, on a loopback port. The adapter and the middleware
// share the rig's logger and providers.
type rig struct {
	url     string
	mcp     *server.MCPServer
	orders  *orders
	logs    *logBuffer
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
	spanOf  sync.Map // X-Probe → the span context of otelhttp's server span of that request
}

// newRig starts the service with WithRecovery placed as p, the adapter's
// options opts (the rig's logger and providers come first) and extra
// server options.
func newRig(t *testing.T, p placement, opts []toolerrmcpgo.Option, extra ...server.ServerOption) *rig {
	t.Helper()
	r := &rig{orders: &orders{}, spans: tracetest.NewSpanRecorder(), metrics: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.metrics))
	t.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	logger, logs := newLogger()
	r.logs = logs
	opts = append([]toolerrmcpgo.Option{toolerrmcpgo.WithLogger(logger), toolerrmcpgo.WithTracerProvider(tp),
		toolerrmcpgo.WithMeterProvider(mp)}, opts...)
	r.mcp = r.orders.server(p, opts, extra...)

	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(r.mcp, server.WithStateLess(true)))
	mux.Handle("/mcp-session", server.NewStreamableHTTPServer(r.mcp, server.WithStateful(true)))
	sse := server.NewSSEServer(r.mcp)
	mux.Handle("/sse", sse)
	mux.Handle("/message", sse)
	stack := middleware.New(middleware.WithLogger(logger), middleware.WithTracerProvider(tp), middleware.WithMeterProvider(mp))(mux)
	srv := httptest.NewServer(otelhttp.NewHandler(r.probe(stack), "mcp", otelhttp.WithTracerProvider(tp)))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// probe notes otelhttp's server span of each request under its X-Probe.
func (r *rig) probe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if p := req.Header.Get("X-Probe"); p != "" {
			r.spanOf.Store(p, trace.SpanContextFromContext(req.Context()))
		}
		next.ServeHTTP(w, req)
	})
}

// serverSpan returns the span context of otelhttp's server span of the
// request probed probe.
func (r *rig) serverSpan(t *testing.T, probe string) trace.SpanContext {
	t.Helper()
	v, ok := r.spanOf.Load(probe)
	require.True(t, ok, "the request %s reached the server", probe)
	sc := v.(trace.SpanContext)
	require.True(t, sc.IsValid(), "otelhttp started a span for %s", probe)
	return sc
}

// exchange is one HTTP request a client sent and the answer's head.
type exchange struct {
	probe   string
	request []byte
	status  int
	header  http.Header
	body    bytes.Buffer // filled as the client reads it
	mu      sync.Mutex
}

// text returns the answer's body read so far.
func (e *exchange) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.body.String()
}

// tee copies what the client reads of an answer into its exchange.
type tee struct {
	rc io.ReadCloser
	ex *exchange
}

// Read reads from the answer and keeps a copy.
func (t *tee) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.ex.mu.Lock()
	t.ex.body.Write(p[:n])
	t.ex.mu.Unlock()
	return n, err
}

// Close closes the answer.
func (t *tee) Close() error { return t.rc.Close() }

// wire is an http.RoundTripper that records every exchange of a client,
// probes each request (X-Probe) and adds header to each.
type wire struct {
	base   http.RoundTripper
	header http.Header
	probes *atomic.Int64
	mu     sync.Mutex
	all    []*exchange
}

// newWire returns a recording transport adding header to each request.
func newWire(header http.Header) *wire {
	return &wire{base: &http.Transport{}, header: header, probes: new(atomic.Int64)}
}

// client returns an HTTP client over w.
func (w *wire) client() *http.Client { return &http.Client{Transport: w, Timeout: 30 * time.Second} }

// RoundTrip sends req and records the exchange.
func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
	}
	out := req.Clone(req.Context())
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	probe := "p-" + strconv.FormatInt(w.probes.Add(1), 10)
	out.Header.Set("X-Probe", probe)
	for k, v := range w.header {
		out.Header[k] = v
	}
	resp, err := w.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	ex := &exchange{probe: probe, request: body, status: resp.StatusCode, header: resp.Header.Clone()}
	resp.Body = &tee{rc: resp.Body, ex: ex}
	w.mu.Lock()
	w.all = append(w.all, ex)
	w.mu.Unlock()
	return resp, nil
}

// exchanges returns the exchanges so far.
func (w *wire) exchanges() []*exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*exchange(nil), w.all...)
}

// callWith returns the one tools/call exchange whose request holds note.
func (w *wire) callWith(t *testing.T, note string) *exchange {
	t.Helper()
	var found *exchange
	for _, ex := range w.exchanges() {
		if bytes.Contains(ex.request, []byte(`"tools/call"`)) && bytes.Contains(ex.request, []byte(note)) {
			require.Nil(t, found, "one exchange carried %s", note)
			found = ex
		}
	}
	require.NotNil(t, found, "no exchange carried %s", note)
	return found
}
