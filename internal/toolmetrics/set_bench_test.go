package toolmetrics

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// BenchmarkCount compares what a call costs to count (one atomic add,
// reported at collection) with what an error costs (a counter's Add on a
// cached attribute set), with the SDK installed and with a no-op
// provider.
func BenchmarkCount(b *testing.B) {
	sdk := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { _ = sdk.Shutdown(context.Background()) })
	ctx := context.Background()
	a := ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "search_orders", Result: KeyHTTPStatus.Int(404)}
	for _, p := range []struct {
		name string
		s    *Set
	}{{"sdk", New(sdk, "bench", quiet)}, {"noop", New(noop.NewMeterProvider(), "bench", quiet)}} {
		b.Run(p.name+"/call", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.s.Call("search_orders")
			}
		})
		b.Run(p.name+"/error", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.s.Error(ctx, a)
			}
		})
	}
}
