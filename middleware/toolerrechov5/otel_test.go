package toolerrechov5_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestTraceIDIsOtelhttpsSpan: otelecho instruments echo v4 only, so an
// echo v5 server is wrapped in otelhttp. The error's trace_id is the trace
// of otelhttp's span, the error is recorded on that span (no span of
// toolerr's own), otelhttp records the status the client got, and no
// secret of the handler's error reaches the span (the span is the
// service's own: internal host names may stay).
func TestTraceIDIsOtelhttpsSpan(t *testing.T) {
	for _, tc := range []struct {
		path, code string
	}{
		{"/orders/1", toolerr.CodeConflict},
		{"/refunds/1", toolerr.CodeInternal},
		{"/panic/1", toolerr.CodeInternal},
		{"/orders/7", toolerr.CodeNotFound},
		{"/no/such/tool", toolerr.CodeToolNotFound},
	} {
		t.Run(tc.path, func(t *testing.T) {
			spans := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
			h := otelhttp.NewHandler(newEcho(toolerrMW(middleware.WithTracerProvider(tp))), "orders",
				otelhttp.WithTracerProvider(tp))
			done := make(chan struct{}, 1)
			url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				h.ServeHTTP(w, r)
				done <- struct{}{} // otelhttp's span has ended
			}))
			resp, body := do(t, "GET", url+tc.path, nil, "")
			<-done
			p := problem(t, resp, body)
			assert.Equal(t, tc.code, p["code"])

			ended := spans.Ended()
			require.Len(t, ended, 1, "otelhttp's span only")
			span := ended[0]
			assert.Equal(t, span.SpanContext().TraceID().String(), p["trace_id"])
			attrs := map[string]string{}
			for _, a := range span.Attributes() {
				attrs[string(a.Key)] = a.Value.String()
			}
			assert.Equal(t, fmt.Sprint(resp.StatusCode), attrs["http.response.status_code"], "otelhttp saw the status the client got")
			assert.Equal(t, tc.code, attrs["toolerr.code"], "the error is on otelhttp's span")
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
