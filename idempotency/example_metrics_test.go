package idempotency_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr/idempotency"
)

// The middleware counts replays, conflicts and store failures on the
// OpenTelemetry provider it is given.
func ExampleWithMeterProvider() {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())
	tool := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1"}`)
	})

	store := idempotency.NewMemoryStore()
	handler := idempotency.Middleware(store, idempotency.WithMeterProvider(mp))(tool)

	for _, body := range []string{`{"to":"Oslo"}`, `{"to":"Oslo"}`, `{"to":"Bergen"}`} {
		req := httptest.NewRequest(http.MethodPost, "/tools/create_label", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer agent-1")
		req.Header.Set("Idempotency-Key", "op-1")
		handler.ServeHTTP(httptest.NewRecorder(), req)
	}

	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
				fmt.Printf("%s{%s} %d\n", m.Name, p.Attributes.Encoded(attribute.DefaultEncoder()), p.Value)
			}
		}
	}
	// Unordered output:
	// toolerr.idempotency.replays{} 1
	// toolerr.idempotency.conflicts{toolerr.idempotency.conflict=payload_mismatch} 1
}
