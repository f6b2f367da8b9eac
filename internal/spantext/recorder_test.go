package spantext

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestNewRecorderRecordsEverySpan: a span of the provider NewRecorder
// returns is in its recorder once ended, and the provider is shut down
// when the test ends, after which it records nothing more.
func TestNewRecorderRecordsEverySpan(t *testing.T) {
	var (
		tp *sdktrace.TracerProvider
		sr *tracetest.SpanRecorder
	)
	t.Run("record", func(t *testing.T) {
		tp, sr = NewRecorder(t)
		_, span := tp.Tracer("t").Start(t.Context(), "refund")
		span.End()
		if got := Of(sr.Ended()); got != "refund \n" {
			t.Fatalf("recorded %q, want the one span", got)
		}
	})
	_, span := tp.Tracer("t").Start(context.Background(), "after")
	span.End()
	if n := len(sr.Ended()); n != 1 {
		t.Fatalf("%d spans after the test ended: the provider was not shut down", n)
	}
}
