package mcptest

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// errorSpanName is the name of the span every MCP adapter records for a
// failed call (internal/mcpcore).
const errorSpanName = "toolerr.error"

// assertRecorded checks that the failure p was recorded once in the log,
// with its ids and code, and that its toolerr.error span is a child of the
// server span of the POST that carried it, with its code, category and
// tool: stateless, where the call runs under that POST's context, and
// stateful, where a library may run it under the context of the request
// that opened the session and the adapter finds the POST's span in the
// traceparent the middleware wrote on it (Toolerr-Traceparent).
func (r *report) assertRecorded(t *testing.T, p map[string]any) {
	t.Helper()
	tool, trace := str(p, "tool"), str(p, "trace_id")
	recs := r.recordsOf(t, str(p, "request_id"))
	if assert.Len(t, recs, 1, "%s: one log record for the failure, with its request id", tool) {
		assert.Equal(t, p["code"], recs[0]["code"], "%s: the log record's code", tool)
		assert.Equal(t, trace, recs[0]["trace_id"], "%s: the log record's trace id", tool)
	}
	spans := r.errorSpans(trace)
	if !assert.Len(t, spans, 1, "%s: one %s span in the call's trace", tool, errorSpanName) {
		return
	}
	s := spans[0]
	attrs := spanAttributes(s)
	assert.Equal(t, p["code"], attrs["toolerr.code"], "%s: span attribute toolerr.code", tool)
	assert.Equal(t, p["category"], attrs["toolerr.category"], "%s: span attribute toolerr.category", tool)
	assert.Equal(t, tool, attrs["gen_ai.tool.name"], "%s: span attribute gen_ai.tool.name", tool)
	var server string
	for _, ex := range r.wire.exchanges() {
		if tr, sp := ex.trace(); tr == trace {
			server = sp
		}
	}
	assert.Equal(t, server, s.Parent().SpanID().String(), "%s: the %s span is a child of the server span of the call's POST", tool, errorSpanName)
}

// recordsOf returns the log records of request id.
func (r *rig) recordsOf(t *testing.T, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, rec := range r.logs.records(t) {
		if rec["request_id"] == id {
			out = append(out, rec)
		}
	}
	return out
}

// logOf returns the one log record of the failure p.
func (r *rig) logOf(t *testing.T, p map[string]any) map[string]any {
	t.Helper()
	recs := r.recordsOf(t, str(p, "request_id"))
	require.Len(t, recs, 1, "%s: one log record for the failure", p["tool"])
	return recs[0]
}

// errorSpans returns the ended toolerr.error spans of trace.
func (r *rig) errorSpans(trace string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if s.Name() == errorSpanName && s.SpanContext().TraceID().String() == trace {
			out = append(out, s)
		}
	}
	return out
}

// spanAttributes returns a span's attributes as strings.
func spanAttributes(s sdktrace.ReadOnlySpan) map[string]string {
	out := map[string]string{}
	for _, kv := range s.Attributes() {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// sweepWire checks every byte the server sent: every response's headers
// and body, SSE streams included, hold no secret, internal address, stack
// trace or HTML; and every tools/call was answered as a protocol answer,
// never an HTTP error.
func (r *rig) sweepWire(t *testing.T) {
	t.Helper()
	exs := r.wire.exchanges()
	require.NotEmpty(t, exs)
	for i, ex := range exs {
		status, header, body := ex.response()
		where := ex.method + " #" + strconv.Itoa(i)
		for k, vs := range header {
			assertClean(t, where+" header "+k, k+": "+strings.Join(vs, "\n"))
		}
		assertClean(t, where+" body", string(body))
		if name, _, ok := ex.toolCall(); ok && status >= 400 {
			t.Errorf("the tools/call of %s was answered with HTTP %d: tool errors are results", name, status)
		}
	}
}

// sweepTelemetry checks every log record and span of the server: no
// secret anywhere; internal addresses, stack traces and HTML only in what
// the operator keeps of the cause (log attributes cause and stack, the
// span event's exception.stacktrace).
func (r *rig) sweepTelemetry(t *testing.T) {
	t.Helper()
	for _, rec := range r.logs.records(t) {
		for k, v := range rec {
			walkStrings(v, "log "+k, func(path, s string) {
				if k == "cause" || k == "stack" {
					assertNoSecret(t, path, s)
					return
				}
				assertClean(t, path, s)
			})
		}
	}
	for _, s := range r.spans.Ended() {
		where := "span " + s.Name()
		assertClean(t, where+" status", s.Status().Description)
		for _, kv := range s.Attributes() {
			assertClean(t, where+" attribute "+string(kv.Key), kv.Value.String())
		}
		for _, ev := range s.Events() {
			for _, kv := range ev.Attributes {
				if kv.Key == "exception.stacktrace" {
					assertNoSecret(t, where+" event "+ev.Name+" "+string(kv.Key), kv.Value.String())
					continue
				}
				assertClean(t, where+" event "+ev.Name+" "+string(kv.Key), kv.Value.String())
			}
		}
	}
}

// failureKey is what the suite counts failures by: the tool, the code
// and its category.
type failureKey struct{ tool, code, category string }

// checkFailureCounts checks that every failure the client saw was
// counted once in the toolerr.errors counter (by gen_ai.tool.name and
// error.type, with toolerr.category) and recorded on one toolerr.error
// span (with gen_ai.tool.name, toolerr.code and toolerr.category), and that
// nothing else was. Tools with a call the client cancelled are left out:
// the server records a failure the client never got. A failure replayed
// to a retry (mcptool.MetaReplayed) is the first call's, with its ids,
// recorded when that call failed: it is not a failure of its own, and is
// counted once, for the first call. A refusal of idempotency
// (IDEMPOTENCY_KEY_REUSED, DUPLICATE_ACTION, UNAUTHENTICATED, …) is a
// failure of the call it refuses, counted like any.
func (r *rig) checkFailureCounts(t *testing.T, outs []outcome) {
	t.Helper()
	cancelled := map[string]bool{}
	for _, o := range outs {
		if o.call.cancelAfter > 0 {
			cancelled[o.call.tool] = true
		}
	}
	want := map[failureKey]int64{}
	for _, o := range outs {
		meta := object(o.result, "_meta")
		p := object(meta, metaProblem)
		if p != nil && !cancelled[o.call.tool] && meta[mcptool.MetaReplayed] != true {
			want[failureKey{str(p, "tool"), str(p, "code"), str(p, "category")}]++
		}
	}
	counted := map[failureKey]int64{}
	for k, n := range r.counted(t) {
		if !cancelled[k.tool] {
			counted[k] += n
		}
	}
	assert.Equal(t, want, counted, "toolerr.errors by gen_ai.tool.name, error.type and toolerr.category")
	spans := map[failureKey]int64{}
	for _, s := range r.spans.Ended() {
		if s.Name() != errorSpanName {
			continue
		}
		a := spanAttributes(s)
		if k := (failureKey{a["gen_ai.tool.name"], a["toolerr.code"], a["toolerr.category"]}); !cancelled[k.tool] {
			spans[k]++
		}
	}
	assert.Equal(t, want, spans, "%s spans by gen_ai.tool.name, toolerr.code and toolerr.category", errorSpanName)
}

// counted returns the toolerr.errors counter's values by tool, code and
// category.
func (r *rig) counted(t *testing.T) map[failureKey]int64 {
	t.Helper()
	return counterBy(t, r, "toolerr.errors", func(a attribute.Set) failureKey {
		tool, _ := a.Value("gen_ai.tool.name")
		code, _ := a.Value("error.type")
		category, _ := a.Value("toolerr.category")
		return failureKey{tool.AsString(), code.AsString(), category.AsString()}
	})
}

// counterBy returns the values of the monotonic int64 counter name,
// summed by the key each point's attributes give.
func counterBy[K comparable](t *testing.T, r *rig, name string, key func(attribute.Set) K) map[K]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.metrics.Collect(context.Background(), &rm))
	out := map[K]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok, "%s is an int64 counter: %T", name, m.Data)
			require.True(t, sum.IsMonotonic, "%s is monotonic", name)
			for _, dp := range sum.DataPoints {
				out[key(dp.Attributes)] += dp.Value
			}
		}
	}
	return out
}
