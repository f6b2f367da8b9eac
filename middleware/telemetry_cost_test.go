package middleware

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/toolerr/toolerr"
)

// TestRecordAllocatesNothingWithoutSDK: with no OTel SDK (otel's global
// providers as they are before one is installed, or no-op providers),
// recording an error allocates nothing once its attribute set is built.
func TestRecordAllocatesNothingWithoutSDK(t *testing.T) {
	for name, opts := range map[string][]Option{
		"global, no SDK installed": nil,
		"no-op providers":          {WithTracerProvider(tracenoop.NewTracerProvider()), WithMeterProvider(metricnoop.NewMeterProvider())},
	} {
		t.Run(name, func(t *testing.T) {
			m := newHandler(append([]Option{WithLogger(quiet)}, opts...))
			require.False(t, m.tel.tracing(), "no SDK behind %T", otel.GetTracerProvider())
			r := httptest.NewRequest("POST", "/tools/refund", nil)
			rec := &recorder{w: httptest.NewRecorder(), m: m}
			rec.Init(r.Context(), "req-1", "")
			r = r.WithContext(rec)
			e := toolerr.Default().New(toolerr.CodeNotFound, "no such order").WithTool("refund")
			m.tel.record(rec, r, e, http.StatusNotFound, nil) // builds the attribute set
			allocs := testing.AllocsPerRun(100, func() {
				m.tel.record(rec, r, e, http.StatusNotFound, nil)
			})
			assert.Zero(t, allocs)
			assert.False(t, rec.fail.ownSpan, "no span started where none could record")
		})
	}
}

// TestErrorCounterAttributesPerCombination: the counter's cached attribute
// sets keep combinations apart (code, tool, vendor, status), with the real
// SDK.
func TestErrorCounterAttributesPerCombination(t *testing.T) {
	rig := newOtelRig(t)
	m := newHandler(append([]Option{WithLogger(quiet)}, rig.options()...))
	send := func(e *toolerr.Error, status int) {
		r := httptest.NewRequest("POST", "/tools/x", nil)
		rec := &recorder{w: httptest.NewRecorder(), m: m}
		rec.Init(r.Context(), "req-1", "")
		m.tel.record(rec, r.WithContext(rec), e, status, nil)
		rec.endSpan()
	}
	nf := toolerr.Default().New(toolerr.CodeNotFound, "")
	for range 3 {
		send(nf.WithTool("a"), 404)
	}
	send(nf.WithTool("b"), 404)
	send(nf.WithTool("a").WithUpstream(toolerr.Upstream{Vendor: "stripe", Status: 404}), 404)
	send(toolerr.Default().New(toolerr.CodeInternal, "").WithTool("a"), 500)

	got := map[string]int64{}
	for _, p := range rig.counter(t, "toolerr.errors") {
		a := attrs(p.Attributes)
		got[a["error.type"]+"|"+a["gen_ai.tool.name"]+"|"+a["toolerr.vendor"]+"|"+a["http.response.status_code"]+"|"+a["toolerr.category"]] = p.Value
	}
	assert.Equal(t, map[string]int64{
		"NOT_FOUND|a||404|not_found":       3,
		"NOT_FOUND|b||404|not_found":       1,
		"NOT_FOUND|a|stripe|404|not_found": 1,
		"INTERNAL_ERROR|a||500|internal":   1,
	}, got)
	assert.Len(t, rig.spans.Ended(), 6, "a span per error the SDK can record")
}

// TestGlobalSDKInstalledLaterIsUsed: a middleware built before the
// service installs its SDK with otel.SetTracerProvider records its error
// spans in that SDK once it is installed. (Run in a child process: the
// global provider can be set only once per process.)
func TestGlobalSDKInstalledLaterIsUsed(t *testing.T) {
	if os.Getenv("TOOLERR_TEST_GLOBAL_SDK") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGlobalSDKInstalledLaterIsUsed$", "-test.v")
		cmd.Env = append(os.Environ(), "TOOLERR_TEST_GLOBAL_SDK=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestGlobalSDKInstalledLaterIsUsed")
		return
	}
	h := New(WithLogger(quiet))(rawHandler(503, nil, ""))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	assert.Nil(t, problem(t, rec.Body.Bytes())["trace_id"], "no SDK yet")

	spans := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	require.Len(t, spans.Ended(), 1)
	span := spans.Ended()[0]
	assert.Equal(t, "toolerr.error", span.Name())
	assert.Equal(t, span.SpanContext().TraceID().String(), problem(t, rec.Body.Bytes())["trace_id"])
}

// TestErrorSpanEndsOnEveryPath: the "toolerr.error" span the middleware
// starts is ended whether the error was a Tool's, a raw response, a panic
// before anything was sent, or a panic after (which aborts the response).
func TestErrorSpanEndsOnEveryPath(t *testing.T) {
	cases := map[string]http.Handler{
		"tool error": Tool("t", func(w http.ResponseWriter, r *http.Request) error {
			return toolerr.Default().New(toolerr.CodeNotFound, "")
		}),
		"raw response":   rawHandler(503, nil, ""),
		"panic":          http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("boom") }),
		"panic after OK": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200); panic("boom") }),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			rig := newOtelRig(t)
			srv := New(append([]Option{WithLogger(quiet)}, rig.options()...)...)(h)
			func() {
				defer func() { _ = recover() }() // http.ErrAbortHandler after the response started
				srv.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
			}()
			require.Len(t, rig.spans.Ended(), 1)
			assert.Equal(t, "toolerr.error", rig.spans.Ended()[0].Name())
		})
	}
}
