package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// withMetrics is the wiring docs/observability.md shows: the middleware's
// meters exported on a Prometheus registry of the service's own, served at
// /metrics.
func withMetrics(getQuote func(http.ResponseWriter, *http.Request) error) (http.Handler, *sdkmetric.MeterProvider, error) {
	registry := prometheus.NewRegistry() // the service's own, not the global one
	exporter, err := otelprom.New(otelprom.WithRegisterer(registry))
	if err != nil {
		return nil, nil, err
	}
	meters := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter)) // Shutdown it when the service stops

	r := chi.NewRouter()
	r.Handle("/metrics", promhttp.HandlerFor(registry, promhttp.HandlerOpts{}))
	r.With(middleware.New(middleware.WithMeterProvider(meters))).
		Method(http.MethodPost, "/tools/get_quote", middleware.Tool("get_quote", getQuote))
	return r, meters, nil
}

// TestExportedNames: what the exporter really serves for toolerr's
// counters, the names the rules and the dashboard read: toolerr.errors
// as toolerr_errors_total, dots of attribute names as underscores, no
// unit suffix for the {error} unit, the instrumentation scope as
// otel_scope_name, and target_info for the resource.
func TestExportedNames(t *testing.T) {
	h, meters, err := withMetrics(func(http.ResponseWriter, *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "no such quote")
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = meters.Shutdown(t.Context()) })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Post(srv.URL+"/tools/get_quote", "application/json", strings.NewReader(`{"id":"q1"}`))
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusNotFound, resp.StatusCode)

	resp, err = srv.Client().Get(srv.URL + "/metrics")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	line := regexp.MustCompile(`(?m)^toolerr_errors_total\{(.*)\} 1$`).FindStringSubmatch(string(body))
	require.NotNil(t, line, "no toolerr_errors_total series of value 1 in:\n%s", body)
	for _, label := range []string{
		`error_type="NOT_FOUND"`, `toolerr_category="not_found"`, `http_response_status_code="404"`,
		`otel_scope_name="github.com/toolerr/toolerr/middleware"`,
	} {
		assert.Contains(t, line[1], label)
	}
	assert.Contains(t, string(body), "# TYPE toolerr_errors_total counter")
	assert.Regexp(t, `(?m)^target_info\{`, string(body))
}
