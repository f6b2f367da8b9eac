package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// rig is the server of one group: the adapter's handler behind toolerr's
// middleware.New and otelhttp (real OpenTelemetry SDK), on a loopback
// port, with everything it sent and recorded.
type rig struct {
	url     string
	srv     *httptest.Server
	wire    *wire // every HTTP exchange, as sent (wire.go)
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
	logs    *logBuffer // the adapter's log: one JSON record a line
	tools   map[string]Tool
}

// newRig builds the adapter's server for sc with tools and starts it; the
// adapter's toolerr options are the suite's logger, tracer provider and
// meter provider, unknown tools answered with a result, and idempotency
// over a memory store of the server's own.
func newRig(t *testing.T, a Adapter, sc serverConfig, tools []Tool) *rig {
	t.Helper()
	r := &rig{
		wire:    &wire{},
		spans:   tracetest.NewSpanRecorder(),
		metrics: sdkmetric.NewManualReader(),
		logs:    &logBuffer{},
		tools:   make(map[string]Tool, len(tools)),
	}
	for _, tool := range tools {
		r.tools[tool.Name] = tool
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.metrics))
	t.Cleanup(func() {
		_ = tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	cfg := ServerConfig{
		Stateless:         sc.stateless,
		LibraryValidation: sc.libraryValidation,
		Options: []mcptool.Option{
			mcptool.WithLogger(slog.New(slog.NewJSONHandler(r.logs, nil))),
			mcptool.WithTracerProvider(tp),
			mcptool.WithMeterProvider(mp),
			mcptool.WithUnknownToolResult(true),
			mcptool.WithIdempotency(idempotency.NewMemoryStore()),
		},
	}
	h := a.NewHandler(t, tools, cfg)
	if h == nil {
		t.Fatalf("mcptest: adapter %q returned no handler", a.Name)
	}
	// The middleware's own log and counters are not the adapter's: its
	// log is discarded and its meter is a no-op, so that what the suite
	// reads is what the adapter recorded.
	stack := middleware.New(
		middleware.WithLogger(slog.New(slog.DiscardHandler)),
		middleware.WithTracerProvider(tp),
		middleware.WithMeterProvider(noop.NewMeterProvider()),
	)(h)
	stack = otelhttp.NewHandler(r.probe(stack), "mcp", otelhttp.WithTracerProvider(tp))
	r.srv = httptest.NewServer(r.wire.tap(stack))
	t.Cleanup(r.close)
	r.url = r.srv.URL
	return r
}

// probe notes, on the exchange of each request, the ids of the server
// span otelhttp started for it.
func (r *rig) probe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if ex := exchangeOf(req.Context()); ex != nil {
			if sc := trace.SpanContextFromContext(req.Context()); sc.IsValid() {
				ex.setSpan(sc.TraceID().String(), sc.SpanID().String())
			}
		}
		next.ServeHTTP(w, req)
	})
}

// close stops the server once the client is done: connections a client
// left open (a stateful session's GET stream) are closed, and every
// handler has returned, so every exchange, span and log record is final.
// Closing twice is harmless.
func (r *rig) close() {
	r.srv.CloseClientConnections()
	r.srv.Close()
}

// logBuffer is a concurrency-safe buffer behind the adapter's logger.
type logBuffer struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	parsed []map[string]any // the records of buf[:upTo]
	upTo   int
}

// Write appends p.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// records returns every log record written so far, decoded; records
// already decoded are not decoded again.
func (b *logBuffer) records(t testing.TB) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	text := b.buf.String()
	end := strings.LastIndexByte(text, '\n') + 1 // whole lines only
	for line := range strings.SplitSeq(text[b.upTo:end], "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("mcptest: a log line is not JSON: %v: %s", err, line)
		}
		b.parsed = append(b.parsed, rec)
	}
	b.upTo = end
	return slices.Clip(b.parsed)
}
