package toolerrecho_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/github.com/labstack/echo/otelecho"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestTraceIDIsOtelechosSpan: with otelecho before toolerr, the error's
// trace_id is the trace of otelecho's span, the error is recorded on that
// span (no span of toolerr's own), and otelecho records the status the
// client got; no secret of the handler's error reaches the span (the
// span is the service's own: internal host names may stay).
func TestTraceIDIsOtelechosSpan(t *testing.T) {
	for _, tc := range []struct {
		path, route, code string
	}{
		{"/orders/1", "/orders/:id", toolerr.CodeConflict},
		{"/refunds/1", "/refunds/:id", toolerr.CodeInternal},
		{"/panic/1", "/panic/:id", toolerr.CodeInternal},
		{"/orders/7", "/orders/:id", toolerr.CodeNotFound},
	} {
		t.Run(tc.path, func(t *testing.T) {
			spans := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
			e := newEcho(otelecho.Middleware("orders", otelecho.WithTracerProvider(tp)),
				toolerrMW(middleware.WithTracerProvider(tp)))
			done := make(chan struct{}, 1)
			url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				e.ServeHTTP(w, r)
				done <- struct{}{} // otelecho's span has ended
			}))
			resp, body := do(t, "GET", url+tc.path, nil, "")
			<-done
			p := problem(t, resp, body)
			assert.Equal(t, tc.code, p["code"])

			ended := spans.Ended()
			require.Len(t, ended, 1, "otelecho's span only")
			span := ended[0]
			assert.Equal(t, "GET "+tc.route, span.Name())
			assert.Equal(t, span.SpanContext().TraceID().String(), p["trace_id"])
			attrs := map[string]string{}
			for _, a := range span.Attributes() {
				attrs[string(a.Key)] = a.Value.String()
			}
			assert.Equal(t, fmt.Sprint(resp.StatusCode), attrs["http.status_code"], "otelecho saw the status the client got")
			assert.Equal(t, tc.code, attrs["toolerr.code"], "the error is on otelecho's span")
			assert.NotContains(t, attrs, "echo.error", "echo was told nothing failed: no raw error text on the span")
			var all strings.Builder
			for k, v := range attrs {
				all.WriteString(k + "=" + v + "\n")
			}
			for _, ev := range span.Events() {
				all.WriteString(ev.Name + "\n")
				for _, a := range ev.Attributes {
					all.WriteString(a.Value.String() + "\n")
				}
			}
			assert.NotContains(t, all.String(), stripeKey)
		})
	}
}
