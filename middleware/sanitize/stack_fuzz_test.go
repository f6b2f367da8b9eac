package sanitize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxStackGrowth bounds how much one trace may lengthen a text: its
// placeholder and a separator, per pass.
const maxStackGrowth = maxStackPasses * (len(stackPlaceholder) + len("99999 frames]") + 2)

// addFixtureSeeds adds every file of testdata/<dir> as a seed.
func addFixtureSeeds(f *testing.F, dir string) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
}

func FuzzStripStackTraces(f *testing.F) {
	addFixtureSeeds(f, "stacks")
	addLocalSeeds(f, "stacks")
	for _, texts := range [][]string{traceFreeTexts, newTraceFreeTexts, jsonTraceFree} {
		for _, s := range texts {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		var rep Report
		out := stripStackTraces(in, &rep)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
		}
		if limit := len(in) + maxStackGrowth*rep.Count(KindStackTrace); len(out) > limit {
			t.Fatalf("grew from %d to %d bytes (%v): %q", len(in), len(out), rep, out)
		}
		if !rep.Changed() && out != in {
			t.Fatalf("changed without a report: %q -> %q", in, out)
		}
		var rep2 Report
		if again := stripStackTraces(out, &rep2); again != out {
			t.Fatalf("not idempotent:\n in: %q\nout: %q\nagain: %q", in, out, again)
		}
		// Collapsing white space may join the parts of a trace line split
		// across lines ("x.rb:1:in 'f\n'"), so Clean strips the collapsed
		// text once more; after that pass the line must be a fixpoint.
		line := collapseSpace(stripStackTraces(collapseSpace(out), &rep2))
		if again := collapseSpace(stripStackTraces(line, &rep2)); again != line {
			t.Fatalf("no fixpoint after one more pass:\nline: %q\nagain: %q", line, again)
		}
		if strings.Count(out, stackPlaceholder) > rep.Count(KindStackTrace)+strings.Count(in, stackPlaceholder) {
			t.Fatalf("more placeholders than traces (%v): %q", rep, out)
		}
	})
}
