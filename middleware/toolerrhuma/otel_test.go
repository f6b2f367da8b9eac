package toolerrhuma_test

import (
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestTraceID checks, with otelhttp around the router, that an error's
// trace_id is the server span's, with and without the toolerr middleware.
func TestTraceID(t *testing.T) {
	for _, m := range mounts {
		for _, mw := range []bool{true, false} {
			name := m.name + "/without middleware"
			if mw {
				name = m.name + "/with middleware"
			}
			t.Run(name, func(t *testing.T) {
				rec := tracetest.NewSpanRecorder()
				tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
				t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
				api, h := m.new(huma.DefaultConfig("Orders", "1.0.0"), mw)
				registerTools(toolerrhuma.Install(api))
				srv := startServer(t, otelhttp.NewHandler(h, "tools", otelhttp.WithTracerProvider(tp)))

				resp, body := call(t, http.MethodGet, srv.URL+"/orders/missing", "")
				e := assertError(t, resp, body, http.StatusNotFound, toolerr.CodeNotFound)
				spans := rec.Ended()
				require.Len(t, spans, 1)
				assert.Equal(t, spans[0].SpanContext().TraceID().String(), e.TraceID)

				resp, body = call(t, http.MethodPost, srv.URL+"/orders/search", `{"query":"x","limit":0}`)
				e = assertError(t, resp, body, http.StatusBadRequest, toolerr.CodeValidationFailed)
				spans = rec.Ended()
				require.Len(t, spans, 2)
				assert.Equal(t, spans[1].SpanContext().TraceID().String(), e.TraceID)
				assert.NotEqual(t, spans[0].SpanContext().TraceID(), spans[1].SpanContext().TraceID())
			})
		}
	}
}
