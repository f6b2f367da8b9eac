package grafana

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/observability/internal/promtest"
)

// update rewrites toolerr.json from the generator: go test -run
// TestDashboardJSONIsGenerated ./grafana -update
var update = flag.Bool("update", false, "rewrite toolerr.json with what the generator builds")

// TestDashboardJSONIsGenerated: the committed toolerr.json is what
// JSON builds now, so a change to the panels cannot ship without the
// file users import.
func TestDashboardJSONIsGenerated(t *testing.T) {
	want, err := JSON()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("toolerr.json", want, 0o644))
	}
	got, err := os.ReadFile("toolerr.json")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "toolerr.json is stale: run go generate ./grafana (or this test with -update)")
}

// TestDashboardPanels: every panel of the JSON has a query, the panels
// cover every metric of the contract, and the breaker panel names the
// gauge's states.
func TestDashboardPanels(t *testing.T) {
	queries, err := promtest.DashboardQueries("toolerr.json")
	require.NoError(t, err)
	var all strings.Builder
	panels := map[string]bool{}
	for _, q := range queries {
		all.WriteString(q.Expr + "\n")
		panels[q.Panel] = true
	}
	count := 0
	for _, s := range sections() {
		count += len(s.panels)
	}
	assert.Len(t, panels, count, "every panel built is in the JSON with its queries")
	for _, m := range []string{
		"toolerr_tool_calls_total", "toolerr_errors_total", "toolerr:upstream_unmapped:rate5m",
		"toolerr_retrygate_retries_total", "toolerr:retrygate_budget_refused:rate5m",
		"toolerr:retrygate_breaker_state:max", "toolerr_retrygate_breaker_transitions_total",
		"toolerr_idempotency_replays_total", "toolerr_idempotency_conflicts_total",
		"toolerr:idempotency_store_unavailable:rate5m", "toolerr_observations_truncated_total",
		"toolerr_redactions_total", "toolerr:tool_server_error_ratio:rate5m",
	} {
		assert.Contains(t, all.String(), m, "no panel reads %s", m)
	}
	b, err := JSON()
	require.NoError(t, err)
	for _, state := range []string{`"text": "closed"`, `"text": "half_open"`, `"text": "open"`} {
		assert.Contains(t, string(b), state)
	}
}

// TestDashboardQueriesParse: every panel's PromQL, with Grafana's
// $__rate_interval substituted, parses: promtool checks it as the
// expression of a recording rule.
func TestDashboardQueriesParse(t *testing.T) {
	bin := promtest.Binary(t, "promtool")
	queries, err := promtest.DashboardQueries("toolerr.json")
	require.NoError(t, err)
	var rules bytes.Buffer
	rules.WriteString("groups:\n  - name: dashboard\n    rules:\n")
	for i, q := range queries {
		expr := promtest.Substitute(q.Expr, "5m")
		require.NotContains(t, expr, "$", "%s: a Grafana variable the test does not substitute", q.Panel)
		fmt.Fprintf(&rules, "      - record: dashboard:query_%d\n        expr: %q\n", i, expr)
	}
	path := filepath.Join(t.TempDir(), "dashboard.rules.yml")
	require.NoError(t, os.WriteFile(path, rules.Bytes(), 0o644))
	out, err := exec.Command(bin, "check", "rules", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("SUCCESS: %d rules found", len(queries)))
}
