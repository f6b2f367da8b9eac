package toolmetrics

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// newSet returns a Set on a real SDK and a function collecting one
// instrument's points as "attrs" → value.
func newSet(t *testing.T) (*Set, func(name string) map[string]int64) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	s := New(mp, "test", quiet)
	return s, func(name string) map[string]int64 {
		var rm metricdata.ResourceMetrics
		require.NoError(t, reader.Collect(context.Background(), &rm))
		got := map[string]int64{}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if m.Name != name {
					continue
				}
				sum, ok := m.Data.(metricdata.Sum[int64])
				require.True(t, ok, "%s is an int64 sum", name)
				require.True(t, sum.IsMonotonic, "%s is a counter", name)
				for _, p := range sum.DataPoints {
					got[p.Attributes.Encoded(attribute.DefaultEncoder())] = p.Value
				}
			}
		}
		return got
	}
}

func TestErrorsUnmappedAndTruncated(t *testing.T) {
	s, points := newSet(t)
	ctx := context.Background()
	for range 2 {
		s.Error(ctx, ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "get_order", Result: KeyHTTPStatus.Int(404)})
	}
	s.Error(ctx, ErrorAttrs{Code: "RATE_LIMITED", Category: "rate_limit", Tool: "get_order", Vendor: "stripe"})
	s.Unmapped(ctx, "", 418, "UPSTREAM_UNCLASSIFIED")
	s.Unmapped(ctx, "acme", 0, "INTERNAL_ERROR")
	s.Truncated(ctx, StageCapture)
	s.Truncated(ctx, StageText)
	s.Truncated(ctx, "anything else")

	assert.Equal(t, map[string]int64{
		"error.type=NOT_FOUND,gen_ai.tool.name=get_order,http.response.status_code=404,toolerr.category=not_found": 2,
		"error.type=RATE_LIMITED,gen_ai.tool.name=get_order,toolerr.category=rate_limit,toolerr.vendor=stripe":     1,
	}, points(NameErrors), "empty names and an invalid result add no attribute")
	assert.Equal(t, map[string]int64{
		"error.type=UPSTREAM_UNCLASSIFIED,http.response.status_code=418,toolerr.vendor=unknown": 1,
		"error.type=INTERNAL_ERROR,http.response.status_code=0,toolerr.vendor=acme":             1,
	}, points(NameUnmapped))
	assert.Equal(t, map[string]int64{
		"toolerr.truncation.stage=capture": 1,
		"toolerr.truncation.stage=text":    2,
	}, points(NameTruncated), "an unknown stage counts as text, never as a new value")
}

func TestCallsAreObservedAtCollection(t *testing.T) {
	s, points := newSet(t)
	for range 3 {
		s.Call("search_orders")
	}
	s.Call("refund")
	s.Call("")
	assert.Equal(t, map[string]int64{
		"gen_ai.tool.name=search_orders": 3,
		"gen_ai.tool.name=refund":        1,
		"":                               1,
	}, points(NameCalls))
	s.Call("refund")
	assert.Equal(t, int64(2), points(NameCalls)["gen_ai.tool.name=refund"], "cumulative across collections")
}

func TestSanitizedCountsRedactionsByKind(t *testing.T) {
	s, points := newSet(t)
	san := sanitize.New(sanitize.WithHostname("")).Observed(s.Sanitized)
	out := san.CleanText("auth failed for key AKIAIOSFODNN7EXAMPLE at db.prod.internal:5432, card 4111 1111 1111 1111")
	assert.NotContains(t, out, "AKIAIOSFODNN7EXAMPLE")
	got := points(NameRedactions)
	assert.Equal(t, int64(1), got["toolerr.redaction.kind=secret"], "%v", got)
	assert.Equal(t, int64(1), got["toolerr.redaction.kind=payment"], "%v", got)
	assert.Equal(t, int64(1), got["toolerr.redaction.kind=internal_host"], "%v", got)
	for k := range got {
		assert.Contains(t, []string{"toolerr.redaction.kind=secret", "toolerr.redaction.kind=payment",
			"toolerr.redaction.kind=internal_host"}, k)
	}
	assert.Empty(t, points(NameTruncated), "nothing was cut")

	long := make([]byte, 5000)
	for i := range long {
		long[i] = 'a' + byte(i%7)
		if i%9 == 8 {
			long[i] = ' '
		}
	}
	san.CleanText(string(long))
	assert.Equal(t, map[string]int64{"toolerr.truncation.stage=text": 1}, points(NameTruncated))

	before := points(NameRedactions)
	san.CleanText("a plain sentence with nothing to remove")
	assert.Equal(t, before, points(NameRedactions), "a clean text is not reported")
}

// TestAttributeCombinationsAreBounded: past MaxAttrSets combinations a new
// one is counted under otel.metric.overflow, so a flood of distinct tool
// or vendor names cannot grow the series without bound; a combination seen
// before keeps its own series.
func TestAttributeCombinationsAreBounded(t *testing.T) {
	s, points := newSet(t)
	ctx := context.Background()
	for i := range MaxAttrSets + 40 {
		tool := fmt.Sprintf("tool-%d", i)
		s.Error(ctx, ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: tool})
		s.Unmapped(ctx, tool, 500, "UPSTREAM_UNCLASSIFIED")
		s.Call(tool)
	}
	s.Error(ctx, ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "tool-0"})
	for _, name := range []string{NameErrors, NameUnmapped, NameCalls} {
		got := points(name)
		assert.Len(t, got, MaxAttrSets+1, name)
		assert.Equal(t, int64(40), got["otel.metric.overflow=true"], name)
	}
	assert.Equal(t, int64(2), points(NameErrors)["error.type=NOT_FOUND,gen_ai.tool.name=tool-0,toolerr.category=not_found"])
}

// TestSeenCombinationsAllocateNothing: counting an error, an unmapped
// response, a call or a truncation already seen allocates nothing, with
// the SDK installed and without.
func TestSeenCombinationsAllocateNothing(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	sdk := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	for name, mp := range map[string]metric.MeterProvider{"sdk": sdk, "noop": noop.NewMeterProvider()} {
		s := New(mp, "test", quiet)
		ctx := context.Background()
		a := ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "t", Vendor: "v", Result: KeyHTTPStatus.Int(404)}
		s.Error(ctx, a)
		s.Unmapped(ctx, "v", 418, "UPSTREAM_UNCLASSIFIED")
		s.Call("t")
		allocs := testing.AllocsPerRun(100, func() {
			s.Error(ctx, a)
			s.Unmapped(ctx, "v", 418, "UPSTREAM_UNCLASSIFIED")
			s.Call("t")
			s.Truncated(ctx, StageText)
		})
		assert.Zero(t, allocs, name)
	}
}

// TestSetsOnOneProviderAddUp: two adapters on one meter provider (two
// routers, each with its middleware) count into the same series: their
// calls add up, none hides the other's.
func TestSetsOnOneProviderAddUp(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	a, b := New(mp, "s", quiet), New(mp, "s", quiet)
	a.Call("x")
	b.Call("x")
	b.Call("y")
	ctx := context.Background()
	a.Error(ctx, ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "x"})
	b.Error(ctx, ErrorAttrs{Code: "NOT_FOUND", Category: "not_found", Tool: "x"})
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			for _, p := range m.Data.(metricdata.Sum[int64]).DataPoints {
				got[m.Name+" "+p.Attributes.Encoded(attribute.DefaultEncoder())] += p.Value
			}
		}
	}
	assert.Equal(t, map[string]int64{
		"toolerr.tool.calls gen_ai.tool.name=x":                                             2,
		"toolerr.tool.calls gen_ai.tool.name=y":                                             1,
		"toolerr.errors error.type=NOT_FOUND,gen_ai.tool.name=x,toolerr.category=not_found": 2,
	}, got)
}
