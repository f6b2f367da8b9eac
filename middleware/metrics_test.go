package middleware

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
	"github.com/toolerr/toolerr/translate"
)

// sums returns the points of the counter name as "attributes" → value.
func (rig *otelRig) sums(t *testing.T, name string) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	var rm metricdata.ResourceMetrics
	require.NoError(t, rig.reader.Collect(context.Background(), &rm))
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok, "%s is an int64 sum", name)
			assert.Equal(t, counterUnits[name], m.Unit, "%s's unit", name)
			for _, p := range sum.DataPoints {
				kv := make([]string, 0, p.Attributes.Len())
				for _, a := range p.Attributes.ToSlice() {
					kv = append(kv, string(a.Key)+"="+a.Value.String())
				}
				got[strings.Join(kv, ",")] = p.Value
			}
		}
	}
	return got
}

// TestCallsAndErrorsOfATool: a Tool's calls and errors are counted under
// the same gen_ai.tool.name, so the error rate is their ratio.
func TestCallsAndErrorsOfATool(t *testing.T) {
	rig := newOtelRig(t)
	fail := false
	mux := http.NewServeMux()
	mux.Handle("/tools/refund", Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		if fail {
			return toolerr.Default().New(toolerr.CodeConflict, "refunded already")
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
		return nil
	}))
	url := rig.underOtelhttp(t, mux)
	for range 3 {
		resp, _ := do(t, "POST", url+"/tools/refund", nil, "{}")
		require.Equal(t, 200, resp.StatusCode)
	}
	fail = true
	resp, _ := do(t, "POST", url+"/tools/refund", nil, "{}")
	require.Equal(t, 409, resp.StatusCode)

	assert.Equal(t, map[string]int64{"gen_ai.tool.name=refund": 4}, rig.sums(t, "toolerr.tool.calls"))
	assert.Equal(t, map[string]int64{
		"error.type=CONFLICT,gen_ai.tool.name=refund,http.response.status_code=409,toolerr.category=conflict": 1,
	}, rig.sums(t, "toolerr.errors"))
}

// TestCapturedBodyRedactionsAndTruncation: what the sanitizer removed from
// a vendor's error body is counted by kind, and a body past the capture
// cap counts as a truncated observation.
func TestCapturedBodyRedactionsAndTruncation(t *testing.T) {
	rig := newOtelRig(t)
	body := `{"error":"invalid key AKIAIOSFODNN7EXAMPLE for card 4111 1111 1111 1111"}` + strings.Repeat(" ", 300)
	url := rig.underOtelhttp(t, vendorHandler("acme", rawHandler(500, map[string]string{"Content-Type": "application/json"}, body)), WithBodyCap(200))
	_, got := do(t, "GET", url, nil, "")
	assert.NotContains(t, string(got), "AKIAIOSFODNN7EXAMPLE")
	red := rig.sums(t, "toolerr.redactions")
	assert.Positive(t, red["toolerr.redaction.kind=secret"], "%v", red)
	assert.Positive(t, red["toolerr.redaction.kind=payment"], "%v", red)
	assert.Equal(t, int64(1), rig.sums(t, "toolerr.observations.truncated")["toolerr.truncation.stage=capture"])
}

// TestOutboundUnmappedReachesTheMiddleware: a Tool's outbound call whose
// response no translator maps (translate.Response, under the request's
// context) is counted by vendor and upstream status, and logged; one made
// under a context of its own is not the middleware's to count.
func TestOutboundUnmappedReachesTheMiddleware(t *testing.T) {
	vendor := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(418)
		_, _ = io.WriteString(w, `{"oops":"a shape no table knows"}`)
	}))
	rig := newOtelRig(t)
	logger, logs := newLogger()
	call := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, "GET", vendor, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return translate.Response(resp)
	}
	mux := http.NewServeMux()
	mux.Handle("/tools/brew", Tool("brew", func(w http.ResponseWriter, r *http.Request) error {
		return call(r.Context())
	}))
	mux.Handle("/tools/detached", Tool("detached", func(w http.ResponseWriter, r *http.Request) error {
		return call(context.Background())
	}))
	samples := unmapped.New(unmapped.WithLogger(quiet))
	url := rig.underOtelhttp(t, mux, WithLogger(logger), WithUnmappedSamples(samples))
	resp, body := do(t, "POST", url+"/tools/brew", nil, "{}")
	assert.Equal(t, 502, resp.StatusCode)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, problem(t, body)["code"])
	_, _ = do(t, "POST", url+"/tools/detached", nil, "{}")

	assert.Equal(t, map[string]int64{
		"error.type=UPSTREAM_UNCLASSIFIED,http.response.status_code=418,toolerr.vendor=unknown": 1,
	}, rig.sums(t, "toolerr.upstream.unmapped"), "once, for the call made under the request's context")
	require.Len(t, logs.byMessage("toolerr: downstream failure not mapped; update the translator"), 1)
	got := samples.Samples()
	require.Len(t, got, 1, "the response is sampled")
	assert.Equal(t, 418, got[0].Status)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, got[0].Code)
	assert.Contains(t, got[0].Body, "a shape no table knows")
	assert.Equal(t, "application/json", got[0].Header["Content-Type"])
}

// TestCapturedUnmappedIsSampled: a vendor response the handler relayed,
// which no table maps, is sampled with its allow-listed headers and its
// sanitized body; its secrets and disallowed headers are not.
func TestCapturedUnmappedIsSampled(t *testing.T) {
	samples := unmapped.New(unmapped.WithLogger(quiet))
	h := vendorHandler("acme", rawHandler(418, map[string]string{
		"Content-Type": "text/plain", "Set-Cookie": "session=abcdef0123456789", "X-Request-Id": "vendor-req-1",
	}, "teapot: key sk_live_51Habcdefghijklmnopqrstuv refused"))
	url := serve(t, h, WithUnmappedSamples(samples))
	resp, _ := do(t, "GET", url, nil, "")
	assert.Equal(t, 502, resp.StatusCode)
	got := samples.Samples()
	require.Len(t, got, 1)
	assert.Equal(t, "acme", got[0].Vendor)
	assert.Equal(t, 418, got[0].Status)
	assert.Contains(t, got[0].Body, "teapot")
	assert.NotContains(t, got[0].Body, "sk_live_51Habcdefghijklmnopqrstuv")
	assert.NotContains(t, got[0].Header, "Set-Cookie")
	assert.Equal(t, "text/plain", got[0].Header["Content-Type"])
}

// TestMetricAttributesCarryNoRequestText: requests with hostile ids,
// paths, headers and bodies leave no id, path or secret in any attribute
// value of any instrument, and the tool names stay those of the routes.
func TestMetricAttributesCarryNoRequestText(t *testing.T) {
	rig := newOtelRig(t)
	mux := http.NewServeMux()
	mux.Handle("POST /tools/search/{q}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		_, _ = io.WriteString(w, "no order "+r.PathValue("q")+" token=sk_live_51Habcdefghijklmnopqrstuv")
	}))
	mux.Handle("/tools/ok", Tool("ok", func(w http.ResponseWriter, r *http.Request) error { return nil }))
	url := rig.underOtelhttp(t, mux)
	var planted []string
	for i := range 40 {
		id := fmt.Sprintf("req-%d-ghp_abcdefghijklmnopqrstuvwxyz%06d", i, i)
		q := fmt.Sprintf("ord_%d_4111111111111111", i)
		planted = append(planted, id, q)
		h := http.Header{"X-Request-Id": {id}, "Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}
		_, _ = do(t, "POST", url+"/tools/search/"+q, h, `{"card":"4111111111111111"}`)
		_, _ = do(t, "POST", url+"/tools/ok", h, "{}")
	}
	tools := map[string]bool{}
	for _, name := range []string{"toolerr.tool.calls", "toolerr.errors", "toolerr.upstream.unmapped",
		"toolerr.observations.truncated", "toolerr.redactions"} {
		for attrs := range rig.sums(t, name) {
			for _, p := range planted {
				assert.NotContains(t, attrs, p, "%s", name)
			}
			assert.NotContains(t, attrs, "sk_live", name)
			for _, kv := range strings.Split(attrs, ",") {
				if v, ok := strings.CutPrefix(kv, "gen_ai.tool.name="); ok {
					tools[v] = true
				}
			}
		}
	}
	assert.Equal(t, map[string]bool{"/tools/search/{q}": true, "ok": true}, tools,
		"tool names are the route pattern and the adapter's name")
	assert.Positive(t, rig.sums(t, "toolerr.redactions")["toolerr.redaction.kind=secret"])
}

// TestOwnSanitizerIsUsedAndCounted: a sanitizer given with WithSanitizer
// cleans what the agent reads (the service's own secret, registered with
// sanitize.WithSecrets, is redacted) and its redactions are counted like
// those of the default one.
func TestOwnSanitizerIsUsedAndCounted(t *testing.T) {
	const own = "db-pass-Xq7rT2"
	rig := newOtelRig(t)
	san := sanitize.New(sanitize.WithSecrets(own), sanitize.WithHostname(""))
	url := rig.underOtelhttp(t, vendorHandler("acme", rawHandler(500, nil, "login failed with "+own)), WithSanitizer(san))
	_, body := do(t, "GET", url, nil, "")
	assert.NotContains(t, string(body), own)
	assert.Contains(t, string(body), "[REDACTED:configured-secret]")
	assert.Positive(t, rig.sums(t, "toolerr.redactions")["toolerr.redaction.kind=secret"])
}
