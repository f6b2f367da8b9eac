package middleware

import (
	"context"
	"io"
	"net/http"
	"testing"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/toolerr/toolerr"
)

// BenchmarkMetricsOn measures the pass-through and the error path with an
// OpenTelemetry SDK meter provider installed (metrics on), through a Tool
// adapter (the call is counted under its tool name) and through a plain
// handler: the figures BENCHMARKS.md compares before and after the
// metrics of issue 31 (the file is built into both binaries).
func BenchmarkMetricsOn(b *testing.B) {
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	on := []Option{WithLogger(quiet), WithMeterProvider(mp)}
	req, _ := http.NewRequest("POST", "/tools/search_orders", nil)
	ok := Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		_, _ = io.WriteString(w, `{"orders":[]}`)
		return nil
	})
	fail := Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "Order 7 does not exist.")
	})
	page := nginx502Page4KiB(b)
	raw502 := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write(page)
	})
	b.Run("pass_through_tool", func(b *testing.B) { runHandler(b, New(on...)(ok), req) })
	b.Run("pass_through_plain", func(b *testing.B) { runHandler(b, New(on...)(okHandler), req) })
	b.Run("tool_error", func(b *testing.B) { runHandler(b, New(on...)(fail), req) })
	b.Run("nginx_502", func(b *testing.B) { runHandler(b, New(on...)(raw502), req) })
}
