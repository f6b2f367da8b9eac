package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCookieValuesEchoedInPages checks that session cookie values echoed by
// an error page (a request dump's table, Django's COOKIES and META tables,
// a Set-Cookie line) or by plain text under a label without a separator
// are redacted. Issue 27 §3.1.
func TestCookieValuesEchoedInPages(t *testing.T) {
	const rails = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA%3D%3D--a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0"
	cases := []struct{ name, in, secret string }{
		{"Rails _session in a request dump table",
			`<html><body><h2>Request</h2><table><tr><td>_session</td><td>` + rails + `</td></tr></table></body></html>`, rails},
		{"an app's _<app>_session",
			`<html><body><table><tr><th>_shop_session</th><td>bGl2ZXNlc3Npb24tZm9yLWFsaWNlLTIwMjY</td></tr></table></body></html>`, "bGl2ZXNlc3Npb24tZm9yLWFsaWNlLTIwMjY"},
		{"Django META HTTP_COOKIE",
			`<html><body><h3 id="meta-info">META</h3><table class="req"><tr><td>HTTP_COOKIE</td><td class="code"><pre>&#x27;csrftoken=Qm9vZ3VzQ3NyZjEy; sessionid=k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8&#x27;</pre></td></tr></table></body></html>`,
			"k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8"},
		{"Django COOKIES sessionid",
			`<html><body><h3 id="cookie-info">COOKIES</h3><table class="req"><tr><td>sessionid</td><td class="code"><pre>&#x27;k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8&#x27;</pre></td></tr></table></body></html>`,
			"k3j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8"},
		{"PHPSESSID in a dump", "<html><body><dl><dt>PHPSESSID</dt><dd>9a8b7c6d5e4f3a2b1c0d9e8f7a</dd></dl></body></html>", "9a8b7c6d5e4f3a2b1c0d9e8f7a"},
		{"JSESSIONID in a fragment", "<tr><td>JSESSIONID</td><td>8F3A2B1C9D7E6F5A4B3C2D1E0F9A8B7C</td></tr>", "8F3A2B1C9D7E6F5A4B3C2D1E0F9A8B7C"},
		{"laravel_session in an Ignition-style table", `<table><tr><td class="key">laravel_session</td><td class="value">eyJpdiI6IkJ4c2ZkIiwidmFsdWUiOiJ4In0%3D</td></tr></table>`, "eyJpdiI6IkJ4c2ZkIiwidmFsdWUiOiJ4In0"},
		{"connect.sid in text", "cookie connect.sid s%3AAbC123dEf.xYz456uVw rejected", "AbC123dEf"},
		{"a Set-Cookie label without colon", "Set-Cookie session=eyJfZnJlc2giOmZhbHNlfQ.ZkXyAb.Qm9vZ3Vz; Path=/; HttpOnly", "eyJfZnJlc2giOmZhbHNlfQ"},
		{"a tab-separated dump", "name\tvalue\n_session\t" + rails + "\n", rails},
		{"a Cookie cell with several pairs", "<table><tr><th>Cookie</th><td>theme=dark; _session=" + rails + "</td></tr></table>", rails},
		{"an HTML page with a title and a cookie in its pre headline",
			`<html><head><title>Error</title></head><body><pre>CookieError: Set-Cookie: session=eyJfZnJlc2giOmZhbHNlfQ.ZkXyAb.Qm9vZ3Vz; HttpOnly</pre></body></html>`, "eyJfZnJlc2giOmZhbHNlfQ"},
	}
	for _, s := range []*Sanitizer{New(WithHostname("")), New(WithHostname(""), withoutPrefilter())} {
		for _, c := range cases {
			out, rep := s.Clean(c.in)
			assert.NotContains(t, out, c.secret, c.name)
			assert.Positive(t, rep.Count(KindSecret), c.name)
			again, _ := s.Clean(out)
			assert.Equal(t, out, again, "%s: not idempotent", c.name)
			assert.NotContains(t, s.Redact(c.in), c.secret, "%s: Redact", c.name)
		}
	}
}

// TestCookieLabelsLeaveProse checks that words naming sessions and cookies
// in prose, and labels followed by a separator the key/value rules read,
// are left as they are.
func TestCookieLabelsLeaveProse(t *testing.T) {
	for _, in := range []string{
		"the session expired, sign in again",
		"Cookie missing from the request",
		"your session will end in 12 minutes",
		"Set-Cookie header rejected: SameSite=None requires Secure",
		"session token is invalid",
		"assess the possession of the object",
		"PHPSESSID cookie not set",
		"the connect.sid cookie was not sent",
	} {
		out, rep := New(WithHostname("")).Clean(in)
		assert.Equal(t, in, out)
		assert.Zero(t, rep.Count(KindSecret), in)
	}
}
