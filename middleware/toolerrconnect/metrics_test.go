package toolerrconnect_test

import (
	"context"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// TestErrorCounter: every error is counted once in toolerr.errors, by its
// code, category, tool and Connect code; successes are not counted there,
// and every call is counted in toolerr.tool.calls.
func TestErrorCounter(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	h := newService(t, "", connect.WithInterceptors(toolerrconnect.NewInterceptor(
		toolerrconnect.WithLogger(quiet), toolerrconnect.WithMeterProvider(mp))))
	url := startServer(t, h).URL
	client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+procFail, connect.WithGRPC())
	for _, kind := range []string{"not_found", "not_found", "go_error", "ok"} {
		_, _ = client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(kind)))
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	counts := map[string]int64{}
	calls := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == "toolerr.tool.calls" {
				for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
					tool, _ := dp.Attributes.Value(attribute.Key("gen_ai.tool.name"))
					calls[tool.AsString()] += dp.Value
				}
			}
			if m.Name != "toolerr.errors" {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok)
			for _, dp := range sum.DataPoints {
				code, _ := dp.Attributes.Value(attribute.Key("error.type"))
				rpc, _ := dp.Attributes.Value(attribute.Key("rpc.response.status_code"))
				tool, _ := dp.Attributes.Value(attribute.Key("gen_ai.tool.name"))
				assert.Equal(t, procFail, tool.AsString())
				counts[code.AsString()+"/"+rpc.AsString()] += dp.Value
			}
		}
	}
	assert.Equal(t, map[string]int64{"NOT_FOUND/not_found": 2, "INTERNAL_ERROR/internal": 1}, counts)
	assert.Equal(t, map[string]int64{procFail: 4}, calls, "every call, successes included, under its procedure")
}
