package middleware

import (
	"context"
	"net/http"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// createPayment is a tool that fails the way a validation does, so every
// call of it ends in an error that names the tool.
func createPayment(w http.ResponseWriter, r *http.Request) error {
	if r.URL.Query().Get("fail") != "" {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "amount must be positive.").WithField("amount")
	}
	w.WriteHeader(http.StatusCreated)
	_, _ = w.Write([]byte(`{"id":"pay_1"}`))
	return nil
}

// keyedCall sends a POST with an idempotency key and credentials.
func keyedCall(t *testing.T, url, key, body string) (*http.Response, []byte) {
	t.Helper()
	return do(t, http.MethodPost, url, http.Header{
		"Idempotency-Key": {key}, "Authorization": {"Bearer agent-7"}, "Content-Type": {"application/json"},
	}, body)
}

// toolPoints returns the gen_ai.tool.name attribute of every toolerr.errors
// data point.
func toolPoints(t *testing.T, rig *otelRig) []string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, rig.reader.Collect(context.Background(), &rm))
	var tools []string
	for _, p := range rig.counterFrom(rm, "toolerr.errors") {
		tools = append(tools, attrs(p.Attributes)["gen_ai.tool.name"])
	}
	return tools
}

// counterFrom returns the data points of the Int64 sum named name in rm.
func (rig *otelRig) counterFrom(rm metricdata.ResourceMetrics, name string) []metricdata.DataPoint[int64] {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == name {
				return sum.DataPoints
			}
		}
	}
	return nil
}

// TestOneToolNameEverywhere: an endpoint's refusal by idempotency (which
// runs before the Tool adapter) and the tool's own error carry the same
// name, in the body and in the metric, however the routes are mounted.
func TestOneToolNameEverywhere(t *testing.T) {
	mounts := map[string]func(rig *otelRig) http.Handler{
		"chi Use, idempotency before routing, ToolFunc with r.Post": func(rig *otelRig) http.Handler {
			r := chi.NewRouter()
			r.Use(New(append(rig.options(), WithLogger(quiet))...))
			r.Use(idempotency.Middleware(idempotency.NewMemoryStore()))
			r.Post("/tools/create_payment", ToolFunc("create_payment", createPayment))
			return r
		},
		"chi With, idempotency per route": func(rig *otelRig) http.Handler {
			r := chi.NewRouter()
			r.Use(New(append(rig.options(), WithLogger(quiet))...))
			r.With(idempotency.Middleware(idempotency.NewMemoryStore())).
				Method(http.MethodPost, "/tools/create_payment", Tool("create_payment", createPayment))
			return r
		},
		"toolerr wraps a chi router": func(rig *otelRig) http.Handler {
			r := chi.NewRouter()
			r.Use(idempotency.Middleware(idempotency.NewMemoryStore()))
			r.Post("/tools/create_payment", ToolFunc("create_payment", createPayment))
			return New(append(rig.options(), WithLogger(quiet))...)(r)
		},
		"chi subrouter mounted under /v1": func(rig *otelRig) http.Handler {
			sub := chi.NewRouter()
			sub.Post("/tools/create_payment", ToolFunc("create_payment", createPayment))
			r := chi.NewRouter()
			r.Use(New(append(rig.options(), WithLogger(quiet))...))
			r.Use(idempotency.Middleware(idempotency.NewMemoryStore()))
			r.Mount("/v1", sub)
			return r
		},
		"ServeMux, idempotency as the tool's middleware": func(rig *otelRig) http.Handler {
			mux := http.NewServeMux()
			mux.Handle("POST /tools/create_payment", Tool("create_payment", createPayment,
				idempotency.Middleware(idempotency.NewMemoryStore())))
			return New(append(rig.options(), WithLogger(quiet))...)(mux)
		},
	}
	for name, mount := range mounts {
		t.Run(name, func(t *testing.T) {
			rig := newOtelRig(t)
			url := newServer(t, mount(rig))
			path := "/tools/create_payment"
			if name == "chi subrouter mounted under /v1" {
				path = "/v1" + path
			}
			resp, _ := keyedCall(t, url+path, "k-1", `{"amount":5}`)
			require.Equal(t, http.StatusCreated, resp.StatusCode)

			resp, body := keyedCall(t, url+path, "k-1", `{"amount":6}`)
			require.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, "%s", body)
			reused := problem(t, body)
			assert.Equal(t, toolerr.CodeIdempotencyKeyReused, reused["code"])
			assert.Equal(t, "create_payment", reused["tool"], "the refusal names the tool as the tool does")

			resp, body = keyedCall(t, url+path+"?fail=1", "k-2", `{"amount":-1}`)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s", body)
			assert.Equal(t, "create_payment", problem(t, body)["tool"])

			for _, tool := range toolPoints(t, rig) {
				assert.Equal(t, "create_payment", tool, "every metric point of the endpoint")
			}
		})
	}
}

// TestServeMuxPatternNamesTheTool: without a Tool adapter, Go 1.22
// ServeMux's pattern (without its method) names the tool, never the raw
// path, whether toolerr wraps the mux or a route.
func TestServeMuxPatternNamesTheTool(t *testing.T) {
	failing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "order "+r.PathValue("id")+" not found", http.StatusNotFound)
	})
	mux := http.NewServeMux()
	mux.Handle("GET /tools/orders/{id}", failing)
	inner := http.NewServeMux()
	inner.Handle("GET /tools/orders/{id}", New(WithLogger(quiet))(failing))
	for name, h := range map[string]http.Handler{
		"toolerr wraps the mux":   New(WithLogger(quiet))(mux),
		"toolerr wraps the route": inner,
	} {
		t.Run(name, func(t *testing.T) {
			resp, body := do(t, http.MethodGet, newServer(t, h)+"/tools/orders/42", nil, "")
			require.Equal(t, http.StatusNotFound, resp.StatusCode)
			p := problem(t, body)
			assert.Equal(t, toolerr.CodeNotFound, p["code"], "a handler's own 404 stays NOT_FOUND")
			assert.Equal(t, "/tools/orders/{id}", p["tool"])
		})
	}
}

// TestIdempotencyScopesByServeMuxPattern: on ServeMux, keys are scoped by
// the route pattern, not the raw path, so one key sent to two paths of one
// route is one operation reused, not two operations.
func TestIdempotencyScopesByServeMuxPattern(t *testing.T) {
	runs := 0
	mux := http.NewServeMux()
	mux.Handle("POST /accounts/{id}/charge", Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		runs++
		w.WriteHeader(http.StatusCreated)
		return nil
	}, idempotency.Middleware(idempotency.NewMemoryStore())))
	url := newServer(t, New(WithLogger(quiet))(mux))
	resp, _ := keyedCall(t, url+"/accounts/1/charge", "k-9", `{"amount":5}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	resp, body := keyedCall(t, url+"/accounts/2/charge", "k-9", `{"amount":5}`)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, "%s", body)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, problem(t, body)["code"])
	assert.Equal(t, 1, runs)
}

// TestToolFuncProbeRunsNothing: finding a ToolFunc's name never runs it.
func TestToolFuncProbeRunsNothing(t *testing.T) {
	ran := false
	h := ToolFunc("probe_me", func(w http.ResponseWriter, r *http.Request) error { ran = true; return nil })
	name, ok := adapterName(h)
	assert.True(t, ok)
	assert.Equal(t, "probe_me", name)
	assert.False(t, ran)
	_, ok = adapterName(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ran = true }))
	assert.False(t, ok, "a plain handler is no adapter, and is not called")
	assert.False(t, ran)
}
