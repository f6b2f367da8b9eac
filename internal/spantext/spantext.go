// Package spantext writes the text of recorded spans, for the sink tests
// to search for planted values. It is apart from package leakprobe so
// that a module whose tests use leakprobe without spans (a store's) does
// not need the OpenTelemetry SDK.
package spantext

import (
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Of writes every span's name, status description, attributes and events
// with their attributes, one per line: the text a span exporter sends.
func Of(spans []sdktrace.ReadOnlySpan) string {
	var s strings.Builder
	for _, sp := range spans {
		s.WriteString(sp.Name() + " " + sp.Status().Description + "\n")
		for _, kv := range sp.Attributes() {
			s.WriteString(string(kv.Key) + "=" + kv.Value.String() + "\n")
		}
		for _, ev := range sp.Events() {
			s.WriteString(ev.Name + "\n")
			for _, kv := range ev.Attributes {
				s.WriteString(string(kv.Key) + "=" + kv.Value.String() + "\n")
			}
		}
	}
	return s.String()
}

// NewRecorder returns a real SDK tracer provider that records every span
// in the recorder it also returns; the provider shuts down when the test
// ends.
func NewRecorder(t testing.TB) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	t.Cleanup(func() { _ = tp.Shutdown(t.Context()) })
	return tp, sr
}
