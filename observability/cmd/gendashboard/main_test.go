package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunWritesTheCommittedDashboard: what go generate writes, to a file
// or to standard output, is the committed grafana/toolerr.json.
func TestRunWritesTheCommittedDashboard(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "grafana", "toolerr.json"))
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "toolerr.json")
	require.NoError(t, run(out, nil))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
	var stdout bytes.Buffer
	require.NoError(t, run("", &stdout))
	require.Equal(t, string(want), stdout.String())
	require.Error(t, run(filepath.Join(t.TempDir(), "missing", "toolerr.json"), nil))
}
