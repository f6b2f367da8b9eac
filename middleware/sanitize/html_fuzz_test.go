package sanitize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// addLocalSeeds adds every file of this package's testdata/<dir> as a seed.
func addLocalSeeds(f *testing.F, dir string) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
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

func FuzzHTMLToText(f *testing.F) {
	addFixtureSeeds(f, "html")
	addLocalSeeds(f, "html")
	addLocalSeeds(f, "html_fragments")
	for _, s := range []string{"<html>", "<title>&lt;html&gt;</title>", "<h1>a<h1>b", "<title>x | 5xx: y</title>",
		"<br />\n<b>Fatal error</b>:  Uncaught Exception: boom in /var/www/x.php:12\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/x.php</b> on line <b>12</b><br />",
		`<form action="/x"><input name="api_token" value="tok_1"></form>`, "<pre>Error: boom<br> &nbsp; &nbsp;at f (/a.js:1:2)</pre>",
		`<html><title>ValueError at /x/</title><pre class="exception_value">bad</pre></html>`, "<x-a b=c>&lt;pre&gt;</x-a>",
		"<!-- c --> <b>x</b>", "<title><input value=s></title><br>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := htmlToText(in)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
		}
		if strings.ContainsAny(out, "<>") || looksLikeHTML(out) {
			t.Fatalf("output reads as markup: %q", out)
		}
		if !looksLikeHTMLDocument(in) && looksLikeHTMLFragment(in) {
			// A fragment keeps its text; markup only ever shrinks, and a
			// neutralized '<', '>' or '&' or a NUL grows to three bytes.
			if len(out) > 3*len(in)+1 {
				t.Fatalf("fragment grew from %d to %d bytes: %q", len(in), len(out), out)
			}
			return
		}
		if !strings.HasPrefix(out, htmlPrefix) || len(out) > len(htmlPrefix)+2+maxHTMLText {
			t.Fatalf("bad shape or length %d: %q", len(out), out)
		}
		if utf8.ValidString(in) && collapseSpace(out) != out {
			t.Fatalf("not one collapsed line: %q", out)
		}
	})
}
