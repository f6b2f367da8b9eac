package prometheus

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/observability/internal/promtest"
)

// TestRulesCheck: promtool accepts the rules file: its YAML, its PromQL
// and its annotation templates.
func TestRulesCheck(t *testing.T) {
	bin := promtest.Binary(t, "promtool")
	out, err := exec.Command(bin, "check", "rules", "toolerr.rules.yml").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "SUCCESS: 12 rules found")
}

// TestRulesUnitTests runs toolerr.rules.test.yml: every alert fires for
// the series it must, with its exact labels and annotations, and for no
// other.
func TestRulesUnitTests(t *testing.T) {
	bin := promtest.Binary(t, "promtool")
	out, err := exec.Command(bin, "test", "rules", "toolerr.rules.test.yml").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "SUCCESS")
}

// TestRulesIsTheFile: Rules returns the file promtool checks, and a
// caller's change to it does not reach the next caller.
func TestRulesIsTheFile(t *testing.T) {
	b, err := os.ReadFile("toolerr.rules.yml")
	require.NoError(t, err)
	got := Rules()
	require.Equal(t, b, got)
	got[0] ^= 0xff
	assert.Equal(t, b, Rules())
}
