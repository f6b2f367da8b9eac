package sanitize

import (
	"strings"
	"testing"
	"time"
)

// adversarialUnits repeated over a whole input make every rule of the
// secrets stage try a candidate at almost every position: repeated token
// prefixes, separators, closing tags, call pairs and curl options.
var adversarialUnits = []string{
	"sk-", "eyJ-", "glpat-", "xoxb-12345678-", "aQ~", "1234567:A", "key=", "appid=", "a:b@", "x:=",
	"String=", "value=", "</a>", `"a",`, `"a", "\"`, "curl -u ", "curl '", "-----END PRIVATE KEY-----",
	"<password>", "hooks.slack.com/services/",
}

// BenchmarkSecretStageProse runs the secrets stage alone on 64 KiB of
// prose: the cost the stage adds to Clean's fast path.
func BenchmarkSecretStageProse(b *testing.B) {
	text := proseText(64 << 10)
	s := New(WithHostname("build-host-7"))
	var rep Report
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		s.secrets.redact(text, &rep)
	}
}

// BenchmarkSecretStageAdversarial runs the secrets stage on 64 KiB of each
// adversarial unit, repeated.
func BenchmarkSecretStageAdversarial(b *testing.B) {
	s := New(WithHostname("build-host-7"))
	for _, unit := range adversarialUnits {
		text := strings.Repeat(unit, (64<<10)/len(unit))
		b.Run(unit, func(b *testing.B) {
			var rep Report
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				s.secrets.redact(text, &rep)
			}
		})
	}
}

// TestSecretStageLinear checks that the secrets stage takes time linear in
// its input on adversarial text: 64 KiB must cost well under the 16 times
// 16 KiB that quadratic work would. It compares the fastest of several
// runs, so a busy machine does not fail it.
func TestSecretStageLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	fastest := func(s *Sanitizer, text string) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 5 {
			var rep Report
			start := time.Now()
			s.secrets.redact(text, &rep)
			best = min(best, time.Since(start))
		}
		return best
	}
	for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
		for _, unit := range adversarialUnits {
			// A machine busy with other tests can stall one measurement:
			// the pair is measured up to three times, and quadratic work
			// fails all three.
			var small, large time.Duration
			for range 3 {
				small = fastest(s, strings.Repeat(unit, (16<<10)/len(unit)))
				large = fastest(s, strings.Repeat(unit, (64<<10)/len(unit)))
				if large <= 10*small+2*time.Millisecond {
					break
				}
			}
			if large > 10*small+2*time.Millisecond {
				t.Errorf("%q: 16 KiB in %v, 64 KiB in %v", unit, small, large)
			}
		}
	}
}
