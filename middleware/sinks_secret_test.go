package middleware

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/leakprobe"
)

// lockedBuffer is a buffer a slog handler writes to from the server's
// goroutines while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// secretSources are tools whose failures carry the planted secrets in
// every place text from outside enters toolerr: a vendor's body and
// headers (mapped and unmapped codes, 4xx and 5xx), a handler's error
// string, detail and cause, and a panic's value.
func secretSources() map[string]http.Handler {
	planted := leakprobe.Sentence()
	probe := leakprobe.Probes()[0].Value
	vendor := func(status int, body string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.RecordVendor(r.Context(), "stripe")
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Request-Id", "req_"+probe)
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		})
	}
	return map[string]http.Handler{
		"vendor 5xx": vendor(http.StatusServiceUnavailable,
			`{"error":{"type":"api_error","message":"`+planted+`"}}`),
		"vendor 4xx, mapped code": vendor(http.StatusPaymentRequired,
			`{"error":{"type":"card_error","code":"card_declined","message":"`+planted+`"}}`),
		// The vendor code no table maps is the unmapped sample: counted
		// and logged.
		"vendor 4xx, unmapped code": vendor(http.StatusBadRequest,
			`{"error":{"type":"invalid_request_error","code":"`+probe+`","message":"`+planted+`"}}`),
		"plain text 5xx": rawHandler(http.StatusBadGateway, map[string]string{"Content-Type": "text/plain"}, planted),
		"Tool, toolerr error with cause": Tool("pay", func(http.ResponseWriter, *http.Request) error {
			return toolerr.Default().New(toolerr.CodeUpstreamUnavailable, planted).
				WithCause(fmt.Errorf("dial vendor with %s: %w", planted, errors.New(planted)))
		}),
		"Tool, Go error": Tool("pay", func(http.ResponseWriter, *http.Request) error {
			return fmt.Errorf("charging with key %s: %w", probe, errors.New(planted))
		}),
		// A card number as a JSON number in details and suggested_value.
		"Tool, card as a number": Tool("pay", func(http.ResponseWriter, *http.Request) error {
			return toolerr.Default().New(toolerr.CodeValidationFailed, "card declined").
				WithDetails(map[string]any{"card": 4242424242424242, "nested": []any{map[string]any{"pan": 4242424242424242}}}).
				WithSuggestedValue(json.Number("4242424242424242"))
		}),
		"toolerr.Write": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			toolerr.Write(w, r, toolerr.Default().New(toolerr.CodeInternal, planted).WithHint("Use "+planted).
				WithCause(errors.New(planted)))
		}),
		"panic": http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			panic("charging failed: " + planted)
		}),
	}
}

// renderings are the requests that make the middleware answer in each of
// its renderings: problem+json, the envelope (a middleware of its own),
// the observation in markdown and plain text, and a JSON-RPC error.
var renderings = []struct {
	name     string
	envelope bool
	header   map[string]string
	body     string
}{
	{name: "problem+json"},
	{name: "envelope", envelope: true},
	{name: "markdown observation", header: map[string]string{"Accept": "text/markdown"}},
	{name: "plain observation", header: map[string]string{"Accept": "text/plain"}},
	{name: "JSON-RPC error", header: map[string]string{"Content-Type": "application/json"},
		body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pay"}}`},
}

// TestNoSinkHoldsASecret sends each secret source through each rendering,
// under otelhttp with the real OTel SDK and a real slog JSON handler, and
// searches every byte written: the agent's body and headers, the log, the
// spans' attributes and events, and the metrics' attributes.
func TestNoSinkHoldsASecret(t *testing.T) {
	rig := newOtelRig(t)
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mux := http.NewServeMux()
	for name, h := range secretSources() {
		mux.Handle("/"+strings.ReplaceAll(name, " ", "_"), h)
	}
	urls := map[bool]string{}
	for _, envelope := range []bool{false, true} {
		opts := append(rig.options(), WithLogger(logger))
		if envelope {
			opts = append(opts, WithFormat(toolerr.FormatEnvelope))
		}
		urls[envelope] = newServer(t, otelhttp.NewHandler(New(opts...)(mux), "tool",
			otelhttp.WithTracerProvider(rig.tp), otelhttp.WithMeterProvider(rig.mp)))
	}
	requests := 0
	for name := range secretSources() {
		for _, rd := range renderings {
			t.Run(name+"/"+rd.name, func(t *testing.T) {
				header := http.Header{}
				for k, v := range rd.header {
					header.Set(k, v)
				}
				resp, body := do(t, http.MethodPost, urls[rd.envelope]+"/"+strings.ReplaceAll(name, " ", "_"), header, rd.body)
				requests++
				leaked, mark := leakprobe.Find(body)
				assert.Empty(t, leaked, "the body holds %q: %s", mark, body)
				var hdr strings.Builder
				for k, vs := range resp.Header {
					hdr.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
				}
				leaked, mark = leakprobe.Find([]byte(hdr.String()))
				assert.Empty(t, leaked, "a header holds %q: %s", mark, hdr.String())
				assert.NotEmpty(t, body)
			})
		}
	}
	require.Eventually(t, func() bool { return len(rig.spans.Ended()) >= requests }, testWait, testTick)

	written := logs.Bytes()
	for _, want := range []string{`"msg":"toolerr: tool call failed"`, `"cause":`, `"stack":`,
		`"msg":"toolerr: downstream failure not mapped; update the translator"`, `"vendor_code":`} {
		assert.Contains(t, string(written), want, "the log has the record or field the test means to search")
	}
	leaked, mark := leakprobe.Find(written)
	assert.Empty(t, leaked, "the log holds %q: %s", mark, written)

	var spans strings.Builder
	events := 0
	for _, s := range rig.spans.Ended() {
		spans.WriteString(s.Name() + " " + s.Status().Description + "\n")
		for _, kv := range s.Attributes() {
			spans.WriteString(string(kv.Key) + "=" + kv.Value.String() + "\n")
		}
		for _, ev := range s.Events() {
			events++
			spans.WriteString(ev.Name + "\n")
			for _, kv := range ev.Attributes {
				spans.WriteString(string(kv.Key) + "=" + kv.Value.String() + "\n")
			}
		}
	}
	assert.Positive(t, events, "the 5xx errors put an exception event on their span")
	assert.Contains(t, spans.String(), "exception.stacktrace=", "the panic's stack is on its span")
	leaked, mark = leakprobe.Find([]byte(spans.String()))
	assert.Empty(t, leaked, "a span holds %q: %s", mark, spans.String())

	var rm metricdata.ResourceMetrics
	require.NoError(t, rig.reader.Collect(context.Background(), &rm))
	var metrics strings.Builder
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, p := range sum.DataPoints {
					metrics.WriteString(m.Name + " " + p.Attributes.Encoded(attribute.DefaultEncoder()) + "\n")
				}
			}
		}
	}
	assert.Contains(t, metrics.String(), "toolerr.upstream.unmapped", "the unmapped sample is counted")
	leaked, mark = leakprobe.Find([]byte(metrics.String()))
	assert.Empty(t, leaked, "a metric holds %q: %s", mark, metrics.String())
}

// TestRoutesPanicLogHoldsNoSecret: a tool routes function that panics
// with a secret is logged with the secret redacted.
func TestRoutesPanicLogHoldsNoSecret(t *testing.T) {
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	url := serve(t, http.NotFoundHandler(), WithLogger(logger), WithToolRoutes(func() []string {
		panic("listing routes with " + leakprobe.Sentence())
	}))
	resp, body := do(t, http.MethodPost, url+"/tools/nope", nil, "")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "%s", body)
	written := logs.Bytes()
	assert.Contains(t, string(written), "the tool routes function panicked")
	leaked, mark := leakprobe.Find(written)
	assert.Empty(t, leaked, "the log holds %q: %s", mark, written)
}
