package toolerrconnect_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// TestTelemetry: under a server span (as otelhttp would start), the
// error's trace id is the span's, the span gets toolerr.code and, for a
// server fault, error.type and an exception event with the sanitized
// detail; one log record per error, with nothing secret in it; the tool
// name follows WithToolName.
func TestTelemetry(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	var logs bytes.Buffer
	var mu = new(lockedWriter)
	mu.w = &logs
	logger := slog.New(slog.NewJSONHandler(mu, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc := newService(t, "", connect.WithInterceptors(toolerrconnect.NewInterceptor(
		toolerrconnect.WithLogger(logger),
		toolerrconnect.WithToolName(func(s connect.Spec) string { return "tool:" + s.Procedure[strings.LastIndexByte(s.Procedure, '/')+1:] }),
	)))
	traced := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tp.Tracer("test").Start(r.Context(), "rpc")
		defer span.End()
		svc.ServeHTTP(w, r.WithContext(ctx))
	})
	url := startServer(t, traced).URL
	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail)

	for _, kind := range []string{"go_error", "not_found"} {
		_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(kind)))
		var ce *connect.Error
		require.ErrorAs(t, err, &ce)
		md := connectDetails(t, ce).info.GetMetadata()
		assert.Equal(t, "tool:Fail", md["tool"])
		spans := rec.Ended()
		require.NotEmpty(t, spans)
		span := spans[len(spans)-1]
		assert.Equal(t, span.SpanContext().TraceID().String(), md["trace_id"], kind)
		attrs := map[attribute.Key]string{}
		for _, a := range span.Attributes() {
			attrs[a.Key] = a.Value.String()
		}
		assert.Equal(t, md["category"], attrs["toolerr.category"])
		if kind == "go_error" {
			assert.Equal(t, "INTERNAL_ERROR", attrs["toolerr.code"])
			assert.Equal(t, "INTERNAL_ERROR", attrs["error.type"])
			require.Len(t, span.Events(), 1)
			for _, a := range span.Events()[0].Attributes {
				noLeak(t, a.Value.String())
			}
		} else {
			assert.Equal(t, "NOT_FOUND", attrs["toolerr.code"])
			assert.Empty(t, attrs["error.type"], "a caller's mistake is no server fault")
		}
	}
	out := mu.String()
	assert.Equal(t, 2, strings.Count(out, "toolerr: rpc failed"))
	for _, l := range []string{secretKey, "hunter2", secretCard} {
		assert.NotContains(t, out, l)
	}
}
