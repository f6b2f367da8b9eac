package toolerrmcpgo_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr"
)

// errorSpans returns the ended "toolerr.error" spans of trace.
func (r *rig) errorSpans(trace string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if s.Name() == "toolerr.error" && s.SpanContext().TraceID().String() == trace {
			out = append(out, s)
		}
	}
	return out
}

// errorCounts returns the toolerr.errors counts by error.type and tool.
func (r *rig) errorCounts(t *testing.T) map[[2]string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.metrics.Collect(context.Background(), &rm))
	out := map[[2]string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "toolerr.errors" {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok, "%T", m.Data)
			for _, dp := range sum.DataPoints {
				code, _ := dp.Attributes.Value("error.type")
				tool, _ := dp.Attributes.Value("gen_ai.tool.name")
				method, _ := dp.Attributes.Value("mcp.method.name")
				assert.Equal(t, "tools/call", method.AsString())
				out[[2]string{code.AsString(), tool.AsString()}] += dp.Value
			}
		}
	}
	return out
}

// attrs returns a span's attributes by key.
func attrs(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// TestEveryFailureIsRecordedOnce, with the real OpenTelemetry SDK behind
// otelhttp and toolerr's middleware: each failed call, whatever its path
// (a returned error, a panic, mcp-go's rejection of arguments), is one
// "toolerr.error" span in the trace of the POST that carried it, a child
// of that POST's server span, and one toolerr.errors count; the span holds
// nothing secret, and the log record's cause is redacted.
func TestEveryFailureIsRecordedOnce(t *testing.T) {
	r := newRig(t, noRecovery, nil, server.WithInputSchemaValidation())
	w := newWire(nil)
	a := connectMCPGo(t, r.url+"/mcp", w, "")
	for _, c := range []struct {
		tool, code, note string
		args             map[string]any
		failsServer      bool
	}{
		{"db_down", toolerr.CodeInternal, "n-db", nil, true},
		{"nil_map", toolerr.CodeInternal, "n-panic", nil, true},
		{"charge", toolerr.CodeValidationFailed, "n-charge", map[string]any{"amount": 900, "currency": "eur"}, false},
	} {
		t.Run(c.tool, func(t *testing.T) {
			args := map[string]any{"note": c.note}
			for k, v := range c.args {
				args[k] = v
			}
			res, err := a.call(t, c.tool, args)
			require.NoError(t, err)
			p := problemOf(t, res)
			require.Equal(t, c.code, p["code"])
			ex := w.callWith(t, c.note)
			post := r.serverSpan(t, ex.probe)
			spans := r.errorSpans(p["trace_id"].(string))
			require.Len(t, spans, 1, "one toolerr.error span in the call's trace")
			s := spans[0]
			assert.Equal(t, post.TraceID(), s.SpanContext().TraceID())
			assert.Equal(t, post.SpanID(), s.Parent().SpanID(), "a child of the POST's server span")
			at := attrs(s.Attributes())
			assert.Equal(t, c.code, at["toolerr.code"])
			assert.Equal(t, c.tool, at["gen_ai.tool.name"])
			assert.Equal(t, "tools/call", at["mcp.method.name"])
			if c.failsServer {
				assert.Equal(t, codes.Error, s.Status().Code)
				require.Len(t, s.Events(), 1, "one exception event")
				for _, kv := range s.Events()[0].Attributes {
					assert.NotContains(t, kv.Value.String(), dbSecret)
				}
			} else {
				assert.Empty(t, s.Events(), "the agent's mistake is no server exception")
			}
			assert.Equal(t, int64(1), r.errorCounts(t)[[2]string{c.code, c.tool}], "counted once")
		})
	}
	for _, rec := range r.logs.failures(t) {
		cause, _ := rec["cause"].(string)
		stack, _ := rec["stack"].(string)
		assert.NotContains(t, cause+stack, dbSecret)
	}
}
