package mcptool_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr/middleware/mcptool"
	"github.com/toolerr/toolerr/middleware/unmapped"
	"github.com/toolerr/toolerr/translate"
)

// TestOutboundUnmappedIsCountedAndSampled: a tool whose outbound call
// reads a response no translator maps (translate.Response under the
// call's context) has it counted in toolerr.upstream.unmapped by upstream
// status, and sampled, sanitized, with WithUnmappedSamples; the call is
// counted once in toolerr.tool.calls.
func TestOutboundUnmappedIsCountedAndSampled(t *testing.T) {
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(418)
		_, _ = io.WriteString(w, "brewing refused for key sk_live_51Habcdefghijklmnopqrstuv")
	}))
	t.Cleanup(vendor.Close)
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	quiet, _ := newLogger()
	samples := unmapped.New(unmapped.WithLogger(quiet))
	brew := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		req, err := http.NewRequestWithContext(ctx, "GET", vendor.URL, nil)
		if err != nil {
			return nil, nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		return nil, nil, translate.Response(resp)
	}
	opts := []mcptool.Option{mcptool.WithLogger(quiet), mcptool.WithMeterProvider(mp), mcptool.WithUnmappedSamples(samples)}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(opts...))
	mcptool.AddTool(server, &mcp.Tool{Name: "brew"}, brew, opts...)
	res := call(t, connect(t, server), "brew", map[string]any{"limit": 1})
	require.True(t, res.IsError)
	assert.Equal(t, "UPSTREAM_UNCLASSIFIED", problem(t, res)["code"])

	got := samples.Samples()
	require.Len(t, got, 1)
	assert.Equal(t, 418, got[0].Status)
	assert.Contains(t, got[0].Body, "brewing refused")
	assert.NotContains(t, got[0].Body, "sk_live_51Habcdefghijklmnopqrstuv")

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	sums := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if s, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, p := range s.DataPoints {
					sums[m.Name+" "+p.Attributes.Encoded(attribute.DefaultEncoder())] += p.Value
				}
			}
		}
	}
	assert.Equal(t, int64(1), sums["toolerr.upstream.unmapped error.type=UPSTREAM_UNCLASSIFIED,http.response.status_code=418,toolerr.vendor=unknown"], "%v", sums)
	assert.Equal(t, int64(1), sums["toolerr.tool.calls gen_ai.tool.name=brew"], "%v", sums)
}
