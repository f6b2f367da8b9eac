package sanitize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readHTMLFixture returns the text of testdata/html/name.
func readHTMLFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "html", name))
	require.NoError(t, err)
	return string(b)
}

func TestLooksLikeHTML(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"<!DOCTYPE html><html><body>x</body></html>", true},
		{"<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", true},
		{"<html>\r\n<head><title>502 Bad Gateway</title></head>", true},
		{"<HTML><HEAD><TITLE>x</TITLE>", true},
		{"<head><meta charset=utf-8>", true},
		{"<body class=\"x\">oops</body>", true},
		{"<title>Error</title>", true},
		{"<h1>Not Found</h1><p>The requested URL was not found on this server.</p>", true},
		{"\n\n   <html>", true},
		{"\uFEFF<!DOCTYPE html>", true},
		{"<!-- generated --><html>", true},
		{"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">", true},
		{"", false},
		{"<", false},
		{"plain text that mentions <b>bold</b> in the middle", true}, // a fragment
		{"error: <html> tag missing", false},
		{"<b>bold</b> start", true}, // a fragment
		{"<htmlx>", false},
		{"<h12>", false},
		{"<!-- a comment that never ends", false},
		{"<?xml version=\"1.0\"?><error><code>500</code></error>", false},
		{"{\"error\":\"<html>\"}", false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, looksLikeHTML(tc.in), "%q", tc.in)
	}
}

func TestHTMLToTextFixtures(t *testing.T) {
	cases := []struct{ file, want string }{
		{"nginx_502.html", "502 Bad Gateway"},
		{"nginx_504.html", "504 Gateway Time-out"},
		{"aws_alb_502.html", "502 Bad Gateway"},
		{"aws_alb_503.html", "503 Service Temporarily Unavailable"},
		{"cloudflare_522.html", "522 Connection timed out"},
		{"cloudflare_524.html", "524 A timeout occurred"},
		{"cloudflare_1020.html", "1020 Access denied"},
		{"cloudfront_403.html", "403 ERROR: The request could not be satisfied"},
		{"cloudfront_504.html", "504 ERROR: The request could not be satisfied"},
		{"apache_503.html", "503 Service Unavailable"},
		{"iis_503.html", "503 Service Unavailable"},
		{"iis_detailed_500.html", "500.19 - Internal Server Error"},
		{"heroku_application_error.html", "Application Error"},
		{"vercel_404.html", "404 NOT_FOUND"},
		{"script_style_no_title.html", "Service temporarily unavailable: the ‹html› renderer & queue are overloaded. Please retry in a few minutes."},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			in := readHTMLFixture(t, tc.file)
			require.True(t, looksLikeHTML(in))
			out := htmlToText(in)
			assert.Equal(t, htmlPrefix+": "+tc.want, out)
			for _, gone := range []string{"nginx", "Apache/", "cloudflare", "internal", "Powered by", "secret-inline",
				"Hidden", "Template text", "JavaScript", "{", "<", ">"} {
				assert.NotContains(t, out, gone)
			}
			assert.False(t, looksLikeHTML(out))
		})
	}
}

func TestHTMLToText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"h1 when no title", "<html><body><h1>Not Found</h1><p>Gone.</p></body></html>", "Not Found"},
		{"visible text without signatures",
			"<html><body>Internal error<hr>nginx/1.25.3<br>Apache/2.4.57 (Debian) Server at db.internal Port 80<p>Microsoft-IIS/10.0</p><p>cloudflare</p><p>Powered by Express</p></body></html>",
			"Internal error"},
		{"entities decoded and neutralized", "<title>Bad &lt;html&gt; &amp;lt;script&amp;gt; &#60;b&#62; AT&amp;T</title>",
			"Bad ‹html› ＆lt;script＆gt; ‹b› AT&T"},
		{"empty document", "<html><head></head><body></body></html>", ""},
		{"title with newlines", "<title>\n  503\n  Service Unavailable\n</title>", "503 Service Unavailable"},
		{"stack trace in visible text", "<html><body><pre>Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in f\n    g()\nValueError: bad input</pre></body></html>",
			"[stack trace removed: 1 frame] ValueError: bad input"},
		{"cloudflare title with only a host segment", "<title>db.internal | db.internal</title>", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := htmlPrefix
			if tc.want != "" {
				want += ": " + tc.want
			}
			assert.Equal(t, want, htmlToText(tc.in))
		})
	}
}

func TestHTMLToTextBounded(t *testing.T) {
	long := "<html><body><p>" + strings.Repeat("word é ", 20000) + "</p></body></html>"
	out := htmlToText(long)
	assert.LessOrEqual(t, len(out), len(htmlPrefix)+2+maxHTMLText)
	assert.True(t, strings.HasPrefix(out, htmlPrefix+": word é word"))
	title := "<title>" + strings.Repeat("x", 5000) + "</title>"
	assert.LessOrEqual(t, len(htmlToText(title)), len(htmlPrefix)+2+maxHTMLText)
}

func TestHTMLCleanIdempotent(t *testing.T) {
	s := New(WithHostname(""))
	for _, in := range []string{
		"<html><title>&lt;html&gt;&lt;title&gt;x&lt;/title&gt;</title></html>",
		"<h1>&amp;lt;html&amp;gt;</h1>",
		"\uFEFF  <!DOCTYPE html><body><p>&lt;!DOCTYPE html&gt;</p>",
	} {
		once := s.CleanText(in)
		assert.False(t, looksLikeHTML(once), once)
		assert.NotContains(t, once, "<")
		assert.NotContains(t, once, ">")
		assert.Equal(t, once, s.CleanText(once))
	}
}

func TestHTMLToTextCutsAtRuneBoundary(t *testing.T) {
	for _, doc := range []string{
		"<title>" + strings.Repeat("é", 400) + "</title>",
		"<title>x" + strings.Repeat("\uFFFD", 300) + "</title>",
		"<h1>" + strings.Repeat("日本", 200) + "</h1>",
		"<html><body>" + strings.Repeat("€ ", 3000) + "</body></html>",
	} {
		out := htmlToText(doc)
		assert.True(t, utf8.ValidString(out), "%q", out)
		assert.LessOrEqual(t, len(out), len(htmlPrefix)+2+maxHTMLText)
	}
}
