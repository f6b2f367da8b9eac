package middleware

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// otelRig is a real SDK tracer and meter provider with in-memory readers.
type otelRig struct {
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newOtelRig(t *testing.T) *otelRig {
	t.Helper()
	rig := &otelRig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	rig.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rig.spans))
	rig.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(rig.reader))
	t.Cleanup(func() {
		_ = rig.tp.Shutdown(context.Background())
		_ = rig.mp.Shutdown(context.Background())
	})
	return rig
}

func (rig *otelRig) options() []Option {
	return []Option{WithTracerProvider(rig.tp), WithMeterProvider(rig.mp)}
}

// underOtelhttp serves h behind New, behind otelhttp's server span.
func (rig *otelRig) underOtelhttp(t *testing.T, h http.Handler, opts ...Option) string {
	t.Helper()
	opts = append(append([]Option{WithLogger(quiet)}, rig.options()...), opts...)
	return newServer(t, otelhttp.NewHandler(New(opts...)(h), "tool",
		otelhttp.WithTracerProvider(rig.tp), otelhttp.WithMeterProvider(rig.mp),
		otelhttp.WithSpanNameFormatter(func(operation string, _ *http.Request) string { return operation })))
}

// counter returns the data points of the Int64 sum named name.
func (rig *otelRig) counter(t *testing.T, name string) []metricdata.DataPoint[int64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, rig.reader.Collect(context.Background(), &rm))
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				sum, ok := m.Data.(metricdata.Sum[int64])
				require.True(t, ok, "%s is an int64 sum", name)
				assert.True(t, sum.IsMonotonic)
				assert.Equal(t, counterUnits[name], m.Unit, "%s's unit", name)
				return sum.DataPoints
			}
		}
	}
	return nil
}

// attrs returns a set's attributes as strings.
func attrs(set attribute.Set) map[string]string {
	m := map[string]string{}
	for _, kv := range set.ToSlice() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// span returns the one ended span named name.
func (rig *otelRig) span(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	// otelhttp ends its span after the handler returns, which may be after
	// the client has read the response.
	require.Eventually(t, func() bool {
		found = found[:0]
		for _, s := range rig.spans.Ended() {
			if s.Name() == name {
				found = append(found, s)
			}
		}
		return len(found) > 0
	}, testWait, testTick, "a %q span ends", name)
	require.Len(t, found, 1, "one %q span", name)
	return found[0]
}

func TestSpanOfAServerError(t *testing.T) {
	rig := newOtelRig(t)
	h := Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeUpstreamUnavailable,
			"billing at 10.2.3.4 refused: Authorization: Bearer sk_live_51HxQmPLqT0k2abcdefghijklmn")
	})
	logger, logs := newLogger()
	resp, body := do(t, "POST", rig.underOtelhttp(t, h, WithLogger(logger)), nil, "")
	require.Equal(t, 503, resp.StatusCode)
	m := problem(t, body)

	span := rig.span(t, "tool")
	assert.Equal(t, span.SpanContext().TraceID().String(), m["trace_id"], "the body carries the span's trace id")
	assert.Equal(t, codes.Error, span.Status().Code, "5xx sets the span status to Error")
	got := attrs(attribute.NewSet(span.Attributes()...))
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, got["error.type"])
	assert.Equal(t, "refund", got["gen_ai.tool.name"], "the GenAI execute_tool attributes")
	assert.Equal(t, "execute_tool", got["gen_ai.operation.name"])

	var exceptions []sdktrace.Event
	for _, ev := range span.Events() {
		if ev.Name == "exception" {
			exceptions = append(exceptions, ev)
		}
	}
	require.Len(t, exceptions, 1, "one exception event")
	ev := attrs(attribute.NewSet(exceptions[0].Attributes...))
	assert.Equal(t, m["detail"], ev["exception.message"], "the sanitized message")
	assert.NotContains(t, ev["exception.message"], "sk_live_")
	assert.NotContains(t, ev["exception.message"], "10.2.3.4")
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, ev["exception.type"])

	recs := logs.failures()
	require.Len(t, recs, 1)
	assert.Equal(t, m["trace_id"], recs[0]["trace_id"])
	assert.Equal(t, m["request_id"], recs[0]["request_id"])
	assert.Equal(t, "503", recs[0]["status"])
	assert.Equal(t, "transient", recs[0]["category"])
	assert.Equal(t, "WARN", recs[0]["level"])
}

func TestSpanOfAClientErrorKeepsStatusUnset(t *testing.T) {
	rig := newOtelRig(t)
	url := rig.underOtelhttp(t, rawHandler(404, nil, "no such order"))
	resp, _ := do(t, "GET", url, nil, "")
	require.Equal(t, 404, resp.StatusCode)
	span := rig.span(t, "tool")
	assert.Equal(t, codes.Unset, span.Status().Code, "a 4xx is the caller's, not the server's")
	a := attrs(attribute.NewSet(span.Attributes()...))
	assert.Equal(t, toolerr.CodeNotFound, a["toolerr.code"])
	assert.NotContains(t, a, "error.type", "semconv keeps error.type for server errors")
	for _, ev := range span.Events() {
		assert.NotEqual(t, "exception", ev.Name, "a 4xx is no exception of the server")
	}
}

func TestPanicStackGoesToTheSpanRedacted(t *testing.T) {
	rig := newOtelRig(t)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic("connect postgres://app:s3cretPassw0rd@db:5432/app")
	})
	resp, body := do(t, "GET", rig.underOtelhttp(t, h), nil, "")
	require.Equal(t, 500, resp.StatusCode)
	assert.NotContains(t, string(body), "postgres")
	span := rig.span(t, "tool")
	require.NotEmpty(t, span.Events())
	ev := attrs(attribute.NewSet(span.Events()[len(span.Events())-1].Attributes...))
	assert.Contains(t, ev["exception.stacktrace"], "telemetry_test.go", "the frames are kept for the operator")
	assert.NotContains(t, ev["exception.stacktrace"], "s3cretPassw0rd")
}

func TestErrorCounter(t *testing.T) {
	rig := newOtelRig(t)
	reg := toolerr.Default()
	h := Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		if r.URL.Query().Get("n") == "1" {
			return reg.New(toolerr.CodeConflict, "Refunded already.")
		}
		return reg.New(toolerr.CodeNotFound, "No such charge.").WithUpstream(toolerr.Upstream{Vendor: "stripe", Status: 404})
	})
	url := rig.underOtelhttp(t, h)
	do(t, "POST", url+"?n=1", nil, "")
	do(t, "POST", url+"?n=1", nil, "")
	do(t, "POST", url+"?n=2", nil, "")

	points := rig.counter(t, "toolerr.errors")
	require.Len(t, points, 2)
	byCode := map[string]metricdata.DataPoint[int64]{}
	for _, p := range points {
		byCode[attrs(p.Attributes)["error.type"]] = p
	}
	conflict := byCode[toolerr.CodeConflict]
	assert.EqualValues(t, 2, conflict.Value)
	assert.Equal(t, map[string]string{
		"error.type": toolerr.CodeConflict, "toolerr.category": "conflict", "gen_ai.tool.name": "refund",
		"http.response.status_code": "409",
	}, attrs(conflict.Attributes), "no vendor: no toolerr.vendor attribute")
	assert.Equal(t, "stripe", attrs(byCode[toolerr.CodeNotFound].Attributes)["toolerr.vendor"])
}

// counterUnits are the units of the middleware's counters.
var counterUnits = map[string]string{
	"toolerr.errors":                 "{error}",
	"toolerr.upstream.unmapped":      "{response}",
	"toolerr.tool.calls":             "{call}",
	"toolerr.observations.truncated": "{observation}",
	"toolerr.redactions":             "{redaction}",
}

func TestUnmappedCounter(t *testing.T) {
	t.Run("unclassified status", func(t *testing.T) {
		rig := newOtelRig(t)
		logger, logs := newLogger()
		resp, body := do(t, "GET", rig.underOtelhttp(t, vendorHandler("acme", rawHandler(418, nil, "short and stout")), WithLogger(logger)), nil, "")
		assert.Equal(t, 502, resp.StatusCode)
		assert.Equal(t, toolerr.CodeUpstreamUnclassified, problem(t, body)["code"])
		points := rig.counter(t, "toolerr.upstream.unmapped")
		require.Len(t, points, 1)
		assert.EqualValues(t, 1, points[0].Value)
		assert.Equal(t, "418", attrs(points[0].Attributes)["http.response.status_code"])
		warn := logs.byMessage("toolerr: downstream failure not mapped; update the translator")
		require.Len(t, warn, 1, "logged loudly")
		assert.Equal(t, "WARN", warn[0]["level"])
	})
	t.Run("unknown vendor code under a known status", func(t *testing.T) {
		rig := newOtelRig(t)
		tr := TranslatorFunc(func(c *translate.Raw) (classify.Outcome, bool) {
			return classify.Outcome{Method: c.Method, Status: c.Status, Header: c.Header, Vendor: "acme", VendorCode: "widget_missing"}, true
		})
		_, body := do(t, "GET", rig.underOtelhttp(t, rawHandler(404, nil, `{"code":"widget_missing"}`), WithTranslator(tr)), nil, "")
		m := problem(t, body)
		assert.Equal(t, toolerr.CodeNotFound, m["code"], "the status table still classifies it")
		points := rig.counter(t, "toolerr.upstream.unmapped")
		require.Len(t, points, 1, "but the unmapped vendor code is counted")
		assert.Equal(t, "acme", attrs(points[0].Attributes)["toolerr.vendor"])
		assert.Equal(t, toolerr.CodeNotFound, attrs(points[0].Attributes)["error.type"])
	})
	t.Run("a mapped vendor code is not counted", func(t *testing.T) {
		rig := newOtelRig(t)
		c := classify.New(nil)
		require.NoError(t, c.RegisterVendor("acme", map[string]string{"widget_missing": toolerr.CodeNotFound}))
		tr := TranslatorFunc(func(cap *translate.Raw) (classify.Outcome, bool) {
			return classify.Outcome{Status: cap.Status, Vendor: "acme", VendorCode: "widget_missing"}, true
		})
		do(t, "GET", rig.underOtelhttp(t, rawHandler(400, nil, ""), WithTranslator(tr), WithClassifier(c)), nil, "")
		assert.Empty(t, rig.counter(t, "toolerr.upstream.unmapped"))
		assert.Len(t, rig.counter(t, "toolerr.errors"), 1)
	})
}

func TestErrorSpanWithoutInstrumentation(t *testing.T) {
	rig := newOtelRig(t)
	opts := append([]Option{WithLogger(quiet)}, rig.options()...)
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	rec := httptest.NewRecorder()
	New(opts...)(rawHandler(503, nil, "")).ServeHTTP(rec, req)
	span := rig.span(t, "toolerr.error")
	assert.Equal(t, "0af7651916cd43dd8448eb211c80319c", span.SpanContext().TraceID().String(), "a child of the incoming trace")
	assert.Equal(t, "b7ad6b7169203331", span.Parent().SpanID().String())
	assert.Equal(t, "0af7651916cd43dd8448eb211c80319c", problem(t, rec.Body.Bytes())["trace_id"])

	rec = httptest.NewRecorder()
	New(opts...)(rawHandler(503, nil, "")).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	m := problem(t, rec.Body.Bytes())
	require.Len(t, rig.spans.Ended(), 2)
	assert.Equal(t, rig.spans.Ended()[1].SpanContext().TraceID().String(), m["trace_id"], "the new span's trace is real, not invented")
}

func TestNoSDKWorks(t *testing.T) {
	rec := httptest.NewRecorder()
	New(WithLogger(quiet))(rawHandler(503, nil, "")).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	m := problem(t, rec.Body.Bytes())
	assert.Nil(t, m["trace_id"], "no SDK, no trace id")
}

func TestSampledOutSpanIsRespected(t *testing.T) {
	rig := newOtelRig(t)
	never := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.NeverSample()))
	ctx, span := never.Tracer("test").Start(context.Background(), "request")
	defer span.End()
	require.True(t, span.SpanContext().IsValid())
	require.False(t, span.IsRecording())
	opts := append([]Option{WithLogger(quiet)}, rig.options()...)
	rec := httptest.NewRecorder()
	New(opts...)(rawHandler(503, nil, "")).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil).WithContext(ctx))
	assert.Empty(t, rig.spans.Ended(), "no span of our own beside a sampled-out one")
	assert.Equal(t, span.SpanContext().TraceID().String(), problem(t, rec.Body.Bytes())["trace_id"])
}
