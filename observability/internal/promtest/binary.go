// Package promtest runs the real Prometheus tools in tests: promtool, and
// a prometheus server on a loopback port with its own storage; and reads
// the queries of toolerr's generated Grafana dashboard.
//
// A test that needs a binary that is not installed (Debian package
// prometheus) is skipped, unless the environment variable CI is "true":
// in CI every real component must be present, and the test fails.
package promtest

import (
	"os"
	"os/exec"
	"testing"
)

// Binary returns the path of the named binary ("promtool", "prometheus")
// found on PATH, skipping the test when it is missing, or failing it
// under CI=true.
func Binary(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("promtest: %s not found on PATH (Debian package prometheus), and CI=true forbids skipping: %v", name, err)
		}
		t.Skipf("promtest: %s not found on PATH (Debian package prometheus): %v", name, err)
	}
	return bin
}
