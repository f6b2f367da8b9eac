package toolerrgin_test

import (
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/github.com/gin-gonic/gin/otelgin"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrgin"
)

// TestOTel: with otelgin before toolerr, an error's trace_id is the trace
// id of otelgin's span, which records the status that went out and the
// error's code (error.type too for a 5xx, as semconv reserves it).
func TestOTel(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
	srv := serve(t, func(r *gin.Engine) {
		r.Use(otelgin.Middleware("orders", otelgin.WithTracerProvider(tp)),
			toolerrgin.Middleware(middleware.WithTracerProvider(tp)))
		r.POST("/orders/:id", toolerrgin.Tool("update_order", func(c *gin.Context) error {
			return conflict()
		}))
		r.GET("/orders/:id", func(c *gin.Context) { c.Status(503) })
	})
	cases := []struct {
		method string
		status int
		code   string
		tool   string
	}{
		{http.MethodPost, 409, toolerr.CodeConflict, "update_order"},
		{http.MethodGet, 503, toolerr.CodeToolUnavailable, "/orders/:id"},
	}
	for _, tc := range cases {
		t.Run(tc.code, func(t *testing.T) {
			before := len(sr.Ended())
			resp, body := call(t, srv, tc.method, "/orders/42", "")
			e := requireError(t, resp, body, tc.status, tc.code, tc.tool)
			ended := sr.Ended()
			require.Len(t, ended, before+1)
			span := ended[len(ended)-1]
			assert.Equal(t, span.SpanContext().TraceID().String(), e.TraceID)
			attrs := map[string]any{}
			for _, kv := range span.Attributes() {
				attrs[string(kv.Key)] = kv.Value.AsInterface()
			}
			assert.Equal(t, int64(tc.status), attrs["http.response.status_code"])
			assert.Equal(t, tc.code, attrs["toolerr.code"], "%v", attrs)
			if tc.status >= 500 {
				assert.Equal(t, tc.code, attrs["error.type"], "%v", attrs)
			}
		})
	}
}
