package sanitize

import (
	"strings"
	"testing"
)

// TestWordRuleFindsLocalhostInAnyCase checks that a letters-only word is
// found in any case and at any alignment, and that a word with a digit or
// '-' is found through that byte.
func TestWordRuleFindsLocalhostInAnyCase(t *testing.T) {
	s := New(WithHostname("build-host-7"))
	for pad := 0; pad < 9; pad++ {
		for _, w := range []string{"localhost", "LOCALHOST", "LocalHost", "locaLHost", "build-host-7", "BUILD-HOST-7"} {
			in := strings.Repeat("x ", pad) + "connect to " + w + ":8080 refused"
			out, _ := s.Clean(in)
			if strings.Contains(strings.ToLower(out), strings.ToLower(w)) {
				t.Errorf("Clean(%q) = %q: the host stayed", in, out)
			}
		}
	}
}
