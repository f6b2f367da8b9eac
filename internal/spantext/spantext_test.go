package spantext

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestOfWritesEveryPart: the name, the status, the attributes and the
// events of a real SDK span are all in the text.
func TestOfWritesEveryPart(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	_, span := tp.Tracer("t").Start(context.Background(), "charge")
	span.SetAttributes(attribute.String("card.last4", "4242"))
	span.RecordError(errors.New("declined by issuer"))
	span.SetStatus(codes.Error, "payment failed")
	span.End()
	got := Of(sr.Ended())
	for _, want := range []string{"charge payment failed", "card.last4=4242", "exception", "declined by issuer"} {
		if !strings.Contains(got, want) {
			t.Errorf("Of() = %q: no %q", got, want)
		}
	}
}
