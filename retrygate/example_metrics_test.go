package retrygate_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/retrygate"
)

// A client's retries, its budget's refusals and its breakers' states are
// counted on the OpenTelemetry provider the policy names, by its Transport
// and by Do alike.
func ExamplePolicy_WithMeterProvider() {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())

	policy := retrygate.DefaultPolicy().WithMeterProvider(mp)
	client := &http.Client{Transport: retrygate.Transport(nil, retrygate.WithPolicy(policy))}
	defer client.CloseIdleConnections()

	// A call rate-limited once, then served.
	calls := 0
	err := retrygate.Do(context.Background(), policy, func(context.Context) error {
		if calls++; calls == 1 {
			return toolerr.Default().New(toolerr.CodeRateLimited, "").WithRetryAfter(time.Millisecond)
		}
		return nil
	})
	fmt.Println("error:", err, "calls:", calls)

	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, p := range sum.DataPoints {
					code, _ := p.Attributes.Value("error.type")
					fmt.Println(m.Name, code.AsString(), p.Value)
				}
			}
		}
	}
	// Output:
	// error: <nil> calls: 2
	// toolerr.retrygate.retries RATE_LIMITED 1
}
