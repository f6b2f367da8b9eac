package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzHTMLToText(f *testing.F) {
	addFixtureSeeds(f, "html")
	for _, s := range []string{"<html>", "<title>&lt;html&gt;</title>", "<h1>a<h1>b", "<title>x | 5xx: y</title>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := htmlToText(in)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
		}
		if !strings.HasPrefix(out, htmlPrefix) || len(out) > len(htmlPrefix)+2+maxHTMLText {
			t.Fatalf("bad shape or length %d: %q", len(out), out)
		}
		if strings.ContainsAny(out, "<>") || looksLikeHTML(out) {
			t.Fatalf("output reads as markup: %q", out)
		}
		if utf8.ValidString(in) && collapseSpace(out) != out {
			t.Fatalf("not one collapsed line: %q", out)
		}
	})
}
