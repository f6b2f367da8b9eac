package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLooksLikeHTMLFragment(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"<br />\n<b>Fatal error</b>:  Uncaught Exception: boom", true},
		{"<pre>Error: boom<br> &nbsp; &nbsp;at f (/a.js:1:2)</pre>", true},
		{"upstream said: <code>ValueError</code>", true},
		{`<form action="/retry" method="post">`, true},
		{"<b>Warning</b>: x", true},
		{"<P>old markup</P>", true},
		{`<INPUT TYPE=hidden NAME=token VALUE=abc>`, true},
		{`<option selected value="x">`, true},
		{`<x-card token="abc"></x-card>`, true},
		{"<div\tclass=\"err\">x</div>", true},
		{"<br\x01>", true}, // a control character ends the name, as collapseSpace sees it
		{"", false},
		{"plain prose, no markup at all", false},
		{"List<String> and Map<K, V> and Vec<u8> and Box<B> and Option<&str>", false},
		{"Add<Rhs=Self> and Iterator<Item = u8> and template <typename T = int>", false},
		{"Ruby's from app.rb:3:in `<main>' and Java's <init> and JS's <anonymous>", false},
		{`Python's File "<input>", line 1 and File "<stdin>"`, false},
		{"Array<object> of <summary> and <source> and <data> at <time>", false},
		{"if a <b and c> d then <p and <a", false},
		{"<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>x</Message></Error>", false},
		{"a < b > c and x <= y and <-- arrows -->", false},
		{"<!-- a comment -->", true},
		{"<brx> and <pretty> and <h7>", false},
		{"<Error><Code>NoSuchKey</Code><Message>gone</Message></Error>", false},           // XML: </Error> is no HTML
		{`<password type="plain">hunter2</password>`, false},                              // the element name is the secret's key
		{`<add key="ClearTextPassword" value="x" />`, false},                              // attributes of a name HTML does not have
		{"<br />\n<b>Fatal error</b>: bad <ns1:ClientSecret>x</ns1:ClientSecret>", false}, // any XML keeps the text as it is
		{"<b>Fatal error</b>: Vec<u8> and List<String>", true},                            // type parameters are neither
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, looksLikeHTMLFragment(tc.in), "%q", tc.in)
		assert.Equal(t, tc.want, looksLikeHTMLFragment(collapseSpace(tc.in)), "collapsed %q", tc.in)
	}
}

func TestHTMLFragmentToText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"php fatal error", readLocalFixture(t, "html_fragments", "php_fatal_br.txt"),
			"\n\nFatal error:  Uncaught Exception: boom in /var/www/x.php:12\nStack trace:\n#0 {main}\n  thrown in /var/www/x.php on line 12\n\n"},
		{"express pre keeps one frame a line", "<pre>Error: boom<br> &nbsp; &nbsp;at f (/a.js:1:2)<br> &nbsp; &nbsp;at g (/b.js:3:4)</pre>",
			"\nError: boom\n \u00a0 \u00a0at f (/a.js:1:2)\n \u00a0 \u00a0at g (/b.js:3:4)\n"},
		{"attribute values, comments and hidden text dropped",
			`<form action="https://x.example/?session=s1"><input type="hidden" name="api_token" value="tok_live_abc"><!-- password=p1 -->` +
				`<textarea name="k">-----BEGIN PRIVATE KEY-----</textarea><script>var t="s2"</script><noscript><input value="s3"></noscript>` +
				`<button>Retry</button></form>`,
			"\n\n\n\n\n\n\nRetry\n"},
		{"entities decoded, markup neutralized", "<p>a &lt;b&gt; &amp;lt;i&amp;gt; AT&amp;T 5 &gt; 3</p>",
			"\na ‹b› ＆lt;i＆gt; AT&T 5 › 3\n"},
		{"a title's raw tags dropped, its entities kept", "<b>x</b><title><input value=s4> &lt;ok&gt;</title>",
			"x\n ‹ok›\n"},
		{"plaintext is hidden, tags and all", "<br>head<plaintext><input value=s5></p>", "\nhead\n"},
		{"custom elements break the line", "<code>500</code><x-msg>gone</x-msg>", "500\ngone\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, htmlToText(tc.in))
		})
	}
}

// TestHTMLFragmentsThroughClean checks the fragment fixtures through the
// whole pipeline: the headline stays, frames, tags and secrets go.
func TestHTMLFragmentsThroughClean(t *testing.T) {
	cases := []struct{ file, want string }{
		{"php_fatal_br.txt", "Fatal error: Uncaught Exception: boom [stack trace removed: 1 frame]"},
		{"php_pdo_fatal.txt", "Fatal error: Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused [stack trace removed: 3 frames]"},
		{"php_warning_then_json.txt", `Warning: Undefined array key "qty" in /var/www/html/cart.php on line 8 {"error":"quantity is required"}`},
		{"express_pre.txt", "Error: connect ECONNREFUSED [private-ip]:5432 [stack trace removed: 2 frames]"},
		{"form_echo.txt", "Email Retry payment Payment failed: card declined (request req_8f2c1a9b3d)"},
		{"code_pre_traceback.txt", "Upstream said: ValueError: bad input [stack trace removed: 1 frame] ValueError: bad input"},
	}
	s := New(WithHostname(""))
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			out, rep := s.Clean(readLocalFixture(t, "html_fragments", tc.file))
			assert.Equal(t, tc.want, out)
			assert.Equal(t, 1, rep.Count(KindHTML))
			again, rep2 := s.Clean(out)
			assert.Equal(t, out, again)
			assert.False(t, rep2.Changed(), "%v", rep2)
		})
	}
}

// attrSecret is planted in attribute values; it must never reach the output.
const attrSecret = "Zq7KMx93Lp"

// attrShapes are the ways an attribute value is written.
var attrShapes = []string{
	`<input type="hidden" name="api_token" value="` + attrSecret + `">`,
	`<input type='hidden' name='api_token' value='` + attrSecret + `'/>`,
	`<input name=api_token value=` + attrSecret + `>`,
	`<INPUT NAME=API_TOKEN VALUE=` + attrSecret + `>`,
	`<input value="a&gt;b ` + attrSecret + `">`,
	`<input value="&#90;q7KMx93Lp ` + attrSecret + `">`,
	`<a href="https://x.example/cb?code=` + attrSecret + `">retry</a>`,
	`<img src="https://cdn.example/p.png?sig=` + attrSecret + `">`,
	`<meta http-equiv="refresh" content="0;url=/login?t=` + attrSecret + `">`,
	`<div data-token="` + attrSecret + `" title="` + attrSecret + `">x</div>`,
	`<form action="/retry?session=` + attrSecret + `" method=post></form>`,
	`<option selected value="` + attrSecret + `">one</option>`,
	`<x-card token="` + attrSecret + `"></x-card>`,
	`<noscript><input value="` + attrSecret + `"></noscript>`,
	`<title><input value="` + attrSecret + `"></title>`,
	`<plaintext><input value="` + attrSecret + `">`,
	`<textarea>` + attrSecret + `</textarea>`,
	`<!-- ` + attrSecret + ` -->`,
	`<input name="api_token" value="` + attrSecret,
}

// TestHTMLAttributesNeverLeak plants a secret in every attribute shape, in
// a fragment and in documents, and checks that neither the secret nor any
// tag reaches Clean's output.
func TestHTMLAttributesNeverLeak(t *testing.T) {
	s := New(WithHostname(""))
	wrappers := []struct{ before, after string }{
		{"<br />\n<b>Fatal error</b>: boom ", " <br />"},
		{"upstream error: ", " please retry"},
		{"<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><h1>Oops</h1>", "</body></html>"},
		{"<html><body>", "<pre>ValueError: bad input</pre></body></html>"},
		{"<html><body><pre>", "</pre></body></html>"},
	}
	for _, shape := range attrShapes {
		for _, w := range wrappers {
			in := w.before + shape + w.after
			out, _ := s.Clean(in)
			assert.NotContains(t, out, attrSecret, in)
			assert.NotContains(t, out, "<", in)
			assert.NotContains(t, strings.ToLower(out), "value=", in)
		}
	}
}
