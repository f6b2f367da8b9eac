package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHTMLDebugPages checks the debug pages of the common frameworks: the
// line keeps the title and adds the exception headline, and nothing of
// the frames, the settings or the request.
func TestHTMLDebugPages(t *testing.T) {
	cases := []struct{ file, want string }{
		{"django_technical_500.html", "ValueError: bad input"},
		{"django_integrity_error.html", `IntegrityError: duplicate key value violates unique constraint "orders_order_reference_key"`},
		{"werkzeug_debugger.html", `django.db.utils.IntegrityError: duplicate key value violates unique constraint "orders_order_reference_key" ` +
			"DETAIL: Key (reference)=(ORD-1001) already exists."},
		{"tomcat_500.html", "HTTP Status 500 – Internal Server Error — jakarta.servlet.ServletException: Request processing failed: " +
			"java.lang.IllegalStateException: inventory service unavailable"},
		{"express_error.html", "TypeError: Cannot read properties of undefined (reading 'sku')"},
		{"beego_panic.html", "beego application error — orders:runtime error: index out of range [3] with length 3"},
		{"go_recovery_panic.html", "500 Internal Server Error — panic: assignment to entry in nil map"},
		{"rocket_500.html", "500 Internal Server Error"},
		{"rust_debug_panic.html", "500 Internal Server Error — thread 'tokio-runtime-worker' panicked: called `Option::unwrap()` on a `None` value"},
		{"rails_debug.html", "Action Controller: Exception caught — ActiveRecord::RecordNotFound: Couldn't find Order with 'id'=42"},
		{"aspnet_ysod.html", "[InvalidOperationException: Order 42 could not be saved]"},
		{"spring_whitelabel.html", "Whitelabel Error Page — java.lang.IllegalStateException: payment gateway refused the charge"},
		{"symfony_exception.html", "Order 42 could not be saved (500 Internal Server Error)"},
	}
	s := New(WithHostname(""))
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			in := readLocalFixture(t, "html", tc.file)
			assert.True(t, looksLikeHTMLDocument(in))
			out := htmlToText(in)
			assert.Equal(t, htmlPrefix+": "+tc.want, out)
			for _, gone := range []string{".py", ".java:", ".js:", ".go:", ".rs:", ".rb:", ".cs:", "+87", "/app/", "Xk29vLp0qZ",
				"db.internal", "goroutine", "rust_begin_unwind", "Request Method", "token=abc", "<", ">",
				"k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8", "Yx7fQpL2mN8vR3tK9wZc", "Werkzeug"} {
				assert.NotContains(t, out, gone)
			}
			cleaned, rep := s.Clean(in)
			assert.Equal(t, out, cleaned)
			assert.Equal(t, 1, rep.Count(KindHTML))
			again, rep2 := s.Clean(cleaned)
			assert.Equal(t, cleaned, again)
			assert.False(t, rep2.Changed())
		})
	}
}

func TestHTMLHeadlineSources(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"python traceback in a pre, headline last",
			"<html><title>Internal Server Error</title><body><pre>Traceback (most recent call last):\n  File \"/app/x.py\", line 3, in f\n    g()\nKeyError: 'sku'</pre></body></html>",
			"Internal Server Error — KeyError: 'sku'"},
		{"h2 headline", "<html><title>Oops</title><body><h1>Oops</h1><h2>Fatal error: Allowed memory size exhausted</h2></body></html>",
			"Oops — Fatal error: Allowed memory size exhausted"},
		{"pre wins over h2", "<html><title>x</title><h2>RuntimeError: from h2</h2><pre>ValueError: from pre</pre></html>",
			"x — ValueError: from pre"},
		{"exception value with its own name", `<html><title>Error</title><pre class="exception_value">KeyError: 'id'</pre></html>`,
			"KeyError: 'id'"},
		{"source lines are not headlines", "<html><title>Server Error</title><pre>Line 41: throw new InvalidOperationException(\"x\");</pre></html>",
			"Server Error"},
		{"a plain pre is not a headline", "<html><title>503 Service Unavailable</title><pre>Try again in 30 seconds: the queue is full.</pre></html>",
			"503 Service Unavailable"},
		{"no headline after the title and h1", "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>Error: upstream</p></body></html>",
			"502 Bad Gateway"},
		{"visible headline only without a title", "<html><body><h1>Whitelabel Error Page</h1><div>Error: upstream refused</div></body></html>",
			"Whitelabel Error Page — Error: upstream refused"},
		{"headline capped with the line", "<html><title>x</title><pre>ValueError: " + strings.Repeat("long ", 200) + "</pre></html>",
			"x — ValueError: " + strings.TrimSpace(strings.Repeat("long ", 200))[:maxHTMLText-len("x — ValueError: ")]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := htmlToText(tc.in)
			assert.Equal(t, htmlPrefix+": "+strings.TrimRight(tc.want, " "), out)
		})
	}
}

func TestIsHeadline(t *testing.T) {
	for _, l := range []string{"ValueError: bad input", "panic: nil map", "Error: boom", "java.lang.IllegalStateException: x",
		"thread 'main' panicked:", "Fatal error:  Uncaught Exception: boom", "[InvalidOperationException: x]", "orders:runtime error: x",
		"SEGMENTATION FAULT: core dumped", "Assertion failure: x"} {
		assert.True(t, isHeadline(l), l)
	}
	for _, l := range []string{"", "Error", "Line 41: throw new Exception(x)", "Request ID: 7f3a", "HTTP Status 500 – Internal Server Error",
		"[stack trace removed: 3 frames]", strings.Repeat("error", 20) + ": x", "Note: errors are logged"} {
		assert.False(t, isHeadline(l), l)
	}
}

func TestCombineHeadline(t *testing.T) {
	cases := []struct{ t, h, want string }{
		{"502 Bad Gateway", "", "502 Bad Gateway"},
		{"", "ValueError: x", "ValueError: x"},
		{"Error", "Error: boom", "Error: boom"},
		{"boom (500 Internal Server Error)", "boom", "boom (500 Internal Server Error)"},
		{"ValueError at /orders/42/", "ValueError: bad input", "ValueError: bad input"},
		{"500 Internal Server Error", "panic: x", "500 Internal Server Error — panic: x"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, combineHeadline(tc.t, tc.h), "%q + %q", tc.t, tc.h)
	}
}

// TestHTMLScanStopsEarlyOnlyWhenSafe checks that stopping after the title
// and h1 gives the line a full scan gives: the nginx page is cut short, a
// page with a pre after padding is not.
func TestHTMLScanStopsEarlyOnlyWhenSafe(t *testing.T) {
	pad := strings.Repeat("<!-- a padding to disable MSIE and Chrome friendly error page -->\r\n", 60)
	page := "<html><head><title>500 Internal Server Error</title></head><body><h1>500 Internal Server Error</h1>" + pad
	assert.Equal(t, htmlPrefix+": 500 Internal Server Error", htmlToText(page+"</body></html>"))
	assert.Equal(t, htmlPrefix+": 500 Internal Server Error — panic: late", htmlToText(page+"<pre>panic: late</pre></body></html>"))
	assert.Equal(t, htmlPrefix+": 500 Internal Server Error — ZeroDivisionError: late",
		htmlToText(page+`<div class="x exception_value">ZeroDivisionError: late</div></body></html>`))
}

// TestHTMLLineCutsBeforeAWord checks that the line of a page is cut before
// the word the cap would cut: half a token is a secret no rule knows.
func TestHTMLLineCutsBeforeAWord(t *testing.T) {
	words := strings.Repeat("word ", (maxHTMLText-10)/5)
	token := "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	out := htmlToText("<title>" + words + token + "</title>")
	assert.Equal(t, htmlPrefix+": "+strings.TrimSpace(words), out)
	// A word longer than the cap goes whole, however long: a cut through
	// it would keep the start of a token that the secret stage, which
	// runs after this one, no longer recognizes.
	long := "ghp_" + strings.Repeat("R4nd0m", maxHTMLText/3)
	assert.Equal(t, htmlPrefix, htmlToText("<title>"+long+"</title>"), "one long word goes whole")
	assert.Equal(t, htmlPrefix+": Bad credentials", htmlToText("<title>Bad credentials "+long+"</title>"))
}
