// Package docpage reads the reference pages of docs/ for the tests that
// pin their promises: a test that checks a behaviour also checks that the
// page where the behaviour is promised still says so, so the page and the
// code cannot disagree unnoticed.
package docpage

import (
	"os"
	"strings"
	"testing"
)

// Says fails t unless the page at path says each quote. Line breaks and
// runs of white space count as one space on both sides, so a quote reads
// as the sentence it is however the page wraps it. A page that cannot be
// read stops the test.
func Says(t testing.TB, path string, quotes ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the page this test pins: %v", err)
		return
	}
	text := oneLine(string(b))
	for _, q := range quotes {
		if !strings.Contains(text, oneLine(q)) {
			t.Errorf("%s no longer says: %s", path, oneLine(q))
		}
	}
}

// oneLine makes every run of white space in s one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
