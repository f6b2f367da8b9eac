package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/observability/internal/promtest"
)

// The end-to-end test runs the example service, a fake vendor, and the
// real Prometheus scraping the service every second with toolerr's rules.

// e2eWait bounds each wait on Prometheus: for a scrape, an alert, the
// dashboard's series.
const e2eWait = 30 * time.Second

// TestEndToEndPrometheus: the example service's metrics, scraped by the
// real Prometheus with toolerr's rules, fire ToolerrUpstreamUnmapped for
// the vendor whose answers nothing maps, and answer every query of the
// generated dashboard.
func TestEndToEndPrometheus(t *testing.T) {
	promtest.Binary(t, "prometheus")
	vendor := newFakeVendor(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	svc, err := Start(ln, Config{VendorURL: vendor.srv.URL, RedisAddr: deadAddr(t)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = svc.Close(context.Background()) })

	dir := t.TempDir()
	rules, err := os.ReadFile(filepath.Join("..", "prometheus", "toolerr.rules.yml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "toolerr.rules.yml"), immediate(rules), 0o644))
	prom := promtest.Start(t, dir, []byte(fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [toolerr.rules.yml]
scrape_configs:
  - job_name: tools
    static_configs:
      - targets: [%q]
`, strings.TrimPrefix(svc.URL, "http://"))))

	a := agent{base: svc.URL, client: &http.Client{Timeout: 10 * time.Second}}
	// A first unmapped answer creates the counter; the rate counts the
	// increase after Prometheus has scraped it once.
	a.unmapped(t, 1)
	a.expect(t, http.StatusOK, "get_quote", `{"id":"q1"}`)
	waitFor(t, "a scrape of toolerr_upstream_unmapped_total", func(ctx context.Context) (bool, error) {
		s, err := prom.Query(ctx, `toolerr_upstream_unmapped_total{job="tools"}`)
		return len(s) > 0, err
	})
	a.unmapped(t, 20)
	a.everything(t, vendor)

	waitFor(t, "ToolerrUpstreamUnmapped firing for vendor carrier", func(ctx context.Context) (bool, error) {
		alerts, err := prom.Alerts(ctx)
		for _, al := range alerts {
			if al.Labels["alertname"] == "ToolerrUpstreamUnmapped" && al.State == "firing" &&
				al.Labels["toolerr_vendor"] == "carrier" && al.Labels["severity"] == "warning" {
				require.Contains(t, al.Annotations["runbook"], "Add a translator mapping for carrier")
				require.Contains(t, al.Annotations["description"], "responses of vendor carrier in the last 5 minutes")
				return true, nil
			}
		}
		return false, err
	})
	checkDashboard(t, prom)
}

// checkDashboard runs every query of the generated dashboard until each
// one that reads an emitted metric returns a series, then reports the
// panels without series and the legend labels no series carries.
func checkDashboard(t *testing.T, prom *promtest.Server) {
	t.Helper()
	queries, err := promtest.DashboardQueries(filepath.Join("..", "grafana", "toolerr.json"))
	require.NoError(t, err)
	require.NotEmpty(t, queries)
	results := map[int][]promtest.Series{}
	waitFor(t, "a series for every dashboard query", func(ctx context.Context) (bool, error) {
		done := true
		for i, q := range queries {
			s, err := prom.Query(ctx, promtest.Substitute(q.Expr, "1m"))
			if err != nil {
				t.Fatalf("panel %q query %s: Prometheus rejects it: %v", q.Panel, q.RefID, err)
			}
			results[i] = s
			if len(s) == 0 {
				done = false
			}
		}
		return done, nil
	})
	for i, q := range queries {
		s := results[i]
		if len(s) == 0 {
			t.Errorf("panel %q query %s returns no series: %s", q.Panel, q.RefID, q.Expr)
			continue
		}
		for _, label := range legendLabels(q.Legend) {
			if !slices.ContainsFunc(s, func(x promtest.Series) bool { return x.Metric[label] != "" }) {
				t.Errorf("panel %q shows %s, which none of its %d series carries: %v", q.Panel, label, len(s), s)
			}
		}
	}
}

// immediate returns the rules with every `for:` shortened to 0s, so that
// an alert fires at the first evaluation that finds its condition: the
// test cannot wait the 10 minutes the real rules ask for. The
// expressions and thresholds are the real ones.
func immediate(rules []byte) []byte {
	return regexp.MustCompile(`(?m)^(\s+for:) \S+$`).ReplaceAll(rules, []byte("$1 0s"))
}

// deadAddr returns a loopback address nothing listens on, for a Redis
// that is down.
func deadAddr(t *testing.T) string {
	t.Helper()
	port, err := promtest.FreePort()
	require.NoError(t, err)
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

// waitFor polls cond every 250 ms until it holds, failing the test after
// e2eWait.
func waitFor(t *testing.T, what string, cond func(context.Context) (bool, error)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), e2eWait)
	defer cancel()
	var last error
	for {
		ok, err := cond(ctx)
		if ok {
			return
		}
		last = err
		select {
		case <-ctx.Done():
			t.Fatalf("waited %s for %s (last error: %v)", e2eWait, what, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
