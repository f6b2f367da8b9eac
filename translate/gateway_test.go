package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// gatewayRaw builds a response for the gateway tests; headers come in pairs.
func gatewayRaw(status int, body string, headers ...string) *Raw {
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Add(headers[i], headers[i+1])
	}
	return &Raw{Method: "GET", Status: status, Header: h, Body: []byte(body)}
}

func TestGatewayElement(t *testing.T) {
	tests := []struct{ name, body, tag, want string }{
		{"plain", "<html><head><title>502 Bad Gateway</title></head>", "title", "502 Bad Gateway"},
		{"upper case", "<HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE>", "title", "ERROR: The request could not be satisfied"},
		{"attributes", `<title lang="en">Hi</title>`, "title", "Hi"},
		{"not a prefix of another tag", "<titles>no</titles><title>yes</title>", "title", "yes"},
		{"nested markup and spaces", "<h1>\n  <span>Error</span>\n <span>1020</span></h1>", "h1", "Error 1020"},
		{"entities", "<title>A &amp; B &lt;x&gt; &quot;q&quot;</title>", "title", `A & B <x> "q"`},
		{"unterminated element", "<title>cut short", "title", "cut short"},
		{"unterminated tag", "<title", "title", ""},
		{"missing", "<html><body>x</body></html>", "title", ""},
		{"empty body", "", "title", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pageElement([]byte(tc.body), tc.tag))
		})
	}
}

func TestGatewayElementBounded(t *testing.T) {
	far := strings.Repeat("x", pageScanLimit) + "<title>too far</title>"
	assert.Empty(t, pageElement([]byte(far), "title"), "only the start of a body is searched")

	long := "<title>" + strings.Repeat("é", 1000) + "</title>"
	got := pageElement([]byte(long), "title")
	assert.LessOrEqual(t, len(got), pageMessageMax)
	assert.True(t, utf8.ValidString(got), "never cut inside a character")

	bad := pageElement([]byte("<title>a\xff\xfeb</title>"), "title")
	assert.True(t, utf8.ValidString(bad))
}

func TestGatewayFirstLine(t *testing.T) {
	assert.Equal(t, "no healthy upstream", firstTextLine([]byte("\r\n  \nno healthy upstream\r\nsecond")))
	assert.Empty(t, firstTextLine([]byte(" \n\t\n")))
	assert.Empty(t, firstTextLine([]byte(strings.Repeat("a", 10000))), "one word longer than the cap is dropped, not cut")
	long := firstTextLine([]byte(strings.Repeat("word ", 2000)))
	assert.LessOrEqual(t, len(long), pageMessageMax)
	assert.True(t, strings.HasSuffix(long, "word"), "cut at a word boundary: %q", long[len(long)-10:])
}

func TestCloudflareRecognizes(t *testing.T) {
	cf := builtinNamed("cloudflare")
	tests := []struct {
		name string
		r    *Raw
		want bool
	}{
		{"1020 text", gatewayRaw(403, "error code: 1020", "Server", "cloudflare", "Content-Type", "text/plain"), true},
		{"ray only", gatewayRaw(429, "error code: 1015", "Cf-Ray", "8a1b-SJC"), true},
		{"no Cloudflare header", gatewayRaw(403, "error code: 1020", "Content-Type", "text/plain"), false},
		{"vendor JSON through Cloudflare", gatewayRaw(429, `{"error":{"message":"slow down"}}`, "Server", "cloudflare", "Content-Type", "application/json"), false},
		{"origin text through Cloudflare", gatewayRaw(500, "Internal Server Error", "Server", "cloudflare"), false},
		{"origin page through Cloudflare", gatewayRaw(502, "<html><title>502 Bad Gateway</title></html>", "Server", "cloudflare", "Content-Type", "text/html"), false},
		{"52x page", gatewayRaw(522, `<html><div id="cf-error-details">Error code 522</div></html>`, "Server", "cloudflare", "Content-Type", "text/html"), true},
		{"challenge", gatewayRaw(403, "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>", "Server", "cloudflare"), true},
		{"empty body", gatewayRaw(403, "", "Server", "cloudflare"), false},
		{"origin page with Cloudflare's injected scripts", gatewayRaw(500,
			`<html><head><title>Server Error</title></head><body>Oops<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>`+
				`<script src="/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js"></script></body></html>`,
			"Server", "cloudflare", "Content-Type", "text/html"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, cf.Recognizes(tc.r)) })
	}
}

func TestCloudflareTranslate(t *testing.T) {
	cf := builtinNamed("cloudflare")
	o, ok := cf.Translate(gatewayRaw(403, "error code: 1020\n", "Server", "cloudflare", "Cf-Ray", "8a1b-SJC"))
	require.True(t, ok)
	assert.Equal(t, "1020", o.VendorCode)
	assert.Equal(t, "Access denied: firewall rule", o.Message)
	assert.Equal(t, "8a1b-SJC", o.RequestID)

	o, ok = cf.Translate(gatewayRaw(521, "error code: 521", "Server", "cloudflare"))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode, "a 52x number repeats the status")
	assert.Equal(t, "521: Web server is down", o.Message)

	o, _ = cf.Translate(gatewayRaw(403, "error code: 1999", "Server", "cloudflare"))
	assert.Equal(t, "1999", o.VendorCode, "an unknown 1xxx code is kept, to be counted as unmapped")
	assert.Equal(t, "error code: 1999", o.Message)

	o, _ = cf.Translate(gatewayRaw(403, `<html><head><title>Attention Required! | Cloudflare</title></head><body>Sorry, you have been blocked</body></html>`, "Server", "cloudflare"))
	assert.True(t, o.Evidence.Challenge, "a WAF block page is a policy block")
	assert.Equal(t, "Attention Required!", o.Message)

	_, ok = cf.Translate(gatewayRaw(200, "error code: 1020", "Server", "cloudflare"))
	assert.False(t, ok, "never a success")
}

func TestCloudflareErrorCode(t *testing.T) {
	tests := map[string]string{
		"error code: 1020":                        "1020",
		"ERROR CODE:1015":                         "1015",
		`<span class="cf-error-code">1006</span>`: "1006",
		"<span>Error code 522</span>":             "522",
		"error code: 12345":                       "",
		"error code: abc":                         "",
		"error code: 12":                          "",
		"":                                        "",
	}
	for body, want := range tests {
		assert.Equal(t, want, cloudflareErrorCode([]byte(body), false), body)
		assert.Equal(t, want, cloudflareErrorCode([]byte(body), true), body)
	}
	// Both forms: a text's own form wins in a text, a template's in a page.
	both := []byte("error code: 1020 <span>Error code 522</span>")
	assert.Equal(t, "1020", cloudflareErrorCode(both, false))
	assert.Equal(t, "522", cloudflareErrorCode(both, true))
	// A form without digits gives way to the next.
	assert.Equal(t, "1006", cloudflareErrorCode([]byte(`Error code x <span class="cf-error-code">1006</span>`), true))
}

func TestCloudflareTitle(t *testing.T) {
	assert.Equal(t, "522: Connection timed out", cloudflareTitle("api.example.com | 522: Connection timed out"))
	assert.Equal(t, "Access denied", cloudflareTitle("Access denied | api.example.com used Cloudflare to restrict access"))
	assert.Equal(t, "Just a moment...", cloudflareTitle("Just a moment..."))
	assert.Empty(t, cloudflareTitle(""))
}

func TestCloudflareCodesAreRegistrable(t *testing.T) {
	table := builtinNamed("cloudflare").Codes()
	require.NotEmpty(t, table)
	for code := range table {
		assert.Len(t, code, 4, code)
		assert.Equal(t, byte('1'), code[0], code)
	}
	require.NoError(t, classify.New(nil).RegisterVendor("cloudflare", table))
}

func TestNginxRecognizes(t *testing.T) {
	n := builtinNamed("nginx")
	page := "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"
	assert.True(t, n.Recognizes(gatewayRaw(502, page)), "the signature alone")
	assert.True(t, n.Recognizes(gatewayRaw(502, strings.Replace(page, "<center>nginx</center>", "", 1), "Server", "nginx/1.25.3")), "Server and a status title")
	assert.True(t, n.Recognizes(gatewayRaw(504, strings.Replace(page, "nginx", "openresty", 1))), "OpenResty")
	assert.False(t, n.Recognizes(gatewayRaw(404, "<html><title>Not found - Acme</title></html>", "Server", "nginx")), "an app's page behind nginx")
	assert.False(t, n.Recognizes(gatewayRaw(502, `{"message":"bad gateway"}`, "Server", "nginx", "Content-Type", "application/json")), "JSON behind nginx")
	assert.False(t, n.Recognizes(gatewayRaw(502, strings.Replace(page, "<center>nginx</center>", "", 1), "Server", "awselb/2.0")))

	o, ok := n.Translate(gatewayRaw(502, page, "X-Request-Id", "abc-1"))
	require.True(t, ok)
	assert.Equal(t, "502 Bad Gateway", o.Message)
	assert.Equal(t, "abc-1", o.RequestID)
	_, ok = n.Translate(gatewayRaw(200, page))
	assert.False(t, ok)
}

func TestALBRecognizes(t *testing.T) {
	a := builtinNamed("aws-alb")
	page := "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n</body>\r\n</html>\r\n"
	assert.True(t, a.Recognizes(gatewayRaw(503, page, "Server", "awselb/2.0")))
	assert.True(t, a.Recognizes(gatewayRaw(460, "", "Server", "awselb/2.0")), "an empty answer of the balancer")
	assert.False(t, a.Recognizes(gatewayRaw(503, page)), "no Server")
	assert.False(t, a.Recognizes(gatewayRaw(404, `{"error":"no route"}`, "Server", "awselb/2.0", "Content-Type", "application/json")), "a fixed response a rule configured")
	assert.False(t, a.Recognizes(gatewayRaw(404, "<html><title>Acme</title></html>", "Server", "awselb/2.0")))

	o, ok := a.Translate(gatewayRaw(503, page, "Server", "awselb/2.0"))
	require.True(t, ok)
	assert.Equal(t, "503 Service Temporarily Unavailable", o.Message)
}

func TestCloudFront(t *testing.T) {
	c := builtinNamed("cloudfront")
	page := `<HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2><HR noshade size="1px">Bad request. We can't connect to the server for this app or website at this time.<BR clear="all"><HR noshade size="1px"><PRE>Generated by cloudfront (CloudFront)
Request ID: AbC123==
</PRE></BODY></HTML>`
	assert.True(t, c.Recognizes(gatewayRaw(403, page, "X-Cache", "Error from cloudfront")))
	assert.True(t, c.Recognizes(gatewayRaw(403, page, "Via", "1.1 abc.cloudfront.net (CloudFront)")))
	assert.False(t, c.Recognizes(gatewayRaw(403, page)), "no CloudFront header")
	assert.False(t, c.Recognizes(gatewayRaw(500, `{"message":"boom"}`, "X-Cache", "Error from cloudfront", "Content-Type", "application/json")), "the origin's error")

	o, ok := c.Translate(gatewayRaw(403, page, "X-Cache", "Error from cloudfront"))
	require.True(t, ok)
	assert.False(t, o.Evidence.Challenge, "a bad request is not a block")
	assert.Equal(t, "AbC123==", o.RequestID, "the page's request id without the header")
	assert.True(t, strings.HasPrefix(o.Message, "Bad request."), o.Message)

	blocked := strings.Replace(page, "Bad request.", "Request blocked.", 1)
	o, _ = c.Translate(gatewayRaw(403, blocked, "X-Amz-Cf-Id", "hdr-id=="))
	assert.True(t, o.Evidence.Challenge)
	assert.Equal(t, "hdr-id==", o.RequestID)

	geo := strings.Replace(page, "Bad request. We can't connect to the server for this app or website at this time.", "The Amazon CloudFront distribution is configured to block access from your country.", 1)
	o, _ = c.Translate(gatewayRaw(403, geo, "X-Amz-Cf-Id", "x"))
	assert.True(t, o.Evidence.Challenge, "a geographic restriction is a policy block")

	o, _ = c.Translate(gatewayRaw(502, "<HTML><TITLE>ERROR: The request could not be satisfied</TITLE><H2>The request could not be satisfied.</H2></HTML>", "X-Amz-Cf-Id", "x"))
	assert.Equal(t, "The request could not be satisfied.", o.Message, "the heading without an explanation")
}

func TestEnvoy(t *testing.T) {
	e := builtinNamed("envoy")
	reset := "upstream connect error or disconnect/reset before headers. reset reason: connection termination"
	assert.True(t, e.Recognizes(gatewayRaw(503, reset, "Server", "envoy")))
	assert.True(t, e.Recognizes(gatewayRaw(503, "no healthy upstream", "X-Envoy-Upstream-Service-Time", "3")))
	assert.True(t, e.Recognizes(gatewayRaw(503, reset, "Server", "istio-envoy", "Content-Type", "text/plain")))
	assert.True(t, e.Recognizes(gatewayRaw(503, reset)), "Envoy's reset reply needs no Envoy header")
	assert.False(t, e.Recognizes(gatewayRaw(503, "no healthy upstream")), "no Envoy header")
	assert.False(t, e.Recognizes(gatewayRaw(503, `{"message":"no healthy upstream"}`, "Server", "envoy", "Content-Type", "application/json")), "a vendor's JSON through Envoy")
	assert.False(t, e.Recognizes(gatewayRaw(500, "database is down", "Server", "envoy")), "an upstream's text through Envoy")

	post := gatewayRaw(503, reset, "Server", "envoy")
	post.Method = "POST"
	o, ok := e.Translate(post)
	require.True(t, ok)
	assert.Equal(t, classify.AdviceDoNotRetry, o.Evidence.Retry, "the upstream may have run the POST")
	assert.Equal(t, "connection termination", o.Details["reset_reason"])

	post.Idempotent = true
	o, _ = e.Translate(post)
	assert.Equal(t, classify.AdviceNone, o.Evidence.Retry, "an idempotency key makes a retry safe")

	failure := gatewayRaw(503, "upstream connect error or disconnect/reset before headers. retried and the latest reset reason: connection failure", "Server", "envoy")
	failure.Method = "POST"
	o, _ = e.Translate(failure)
	assert.Equal(t, classify.AdviceNone, o.Evidence.Retry, "the request never reached the upstream")
	assert.Equal(t, "connection failure", o.Details["reset_reason"])

	o, _ = e.Translate(gatewayRaw(503, "no healthy upstream", "Server", "envoy"))
	assert.Nil(t, o.Details)
	assert.Equal(t, "no healthy upstream", o.Message)
}

func TestEnvoyResetReason(t *testing.T) {
	assert.Equal(t, "connection failure", envoyResetReason("… reset reason: connection failure, transport failure reason: delayed connect error: 111"))
	assert.Equal(t, "overflow", envoyResetReason("… reset reason: Overflow"))
	assert.Empty(t, envoyResetReason("no healthy upstream"))
	assert.Empty(t, envoyResetReason("reset reason: "))
}

func TestGatewaysRejectSuccessAndForeignBodies(t *testing.T) {
	for _, g := range builtinGateways() {
		for _, body := range []string{"", "{", `{"error":{"code":"x"}}`, "<?xml version=\"1.0\"?><Error><Code>x</Code></Error>", "\x00\xff\xfe"} {
			r := gatewayRaw(200, body, "Server", "cloudflare", "Cf-Ray", "1", "X-Cache", "Error from cloudfront")
			_, ok := g.Translate(r)
			assert.False(t, ok, "%s reads a 2xx", g.Vendor())
		}
	}
}

func TestGatewayWinsOverVendorHost(t *testing.T) {
	s, err := NewSet(nil)
	require.NoError(t, err)
	page := "<html><head><title>502 Bad Gateway</title></head><body><hr><center>nginx</center></body></html>"
	e := s.Classify(context.Background(), &Raw{Method: "POST", Host: "api.stripe.com", Status: 502, Header: http.Header{"Server": {"nginx"}}, Body: []byte(page)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "nginx", e.Upstream.Vendor)
}

func TestGatewayHugeBody(t *testing.T) {
	huge := strings.Repeat("<center>", 100000)
	for _, g := range builtinGateways() {
		r := gatewayRaw(502, huge, "Server", "nginx", "Cf-Ray", "1", "X-Amz-Cf-Id", "1")
		g.Recognizes(r)
		_, _ = g.Translate(r)
	}
}

// fragmentText's shortcut for plain text gives what the markup walk gives.
func TestGwCleanTextPlainShortcut(t *testing.T) {
	for _, s := range []string{
		"", "a", "api.example.com | 522: Connection timed out", " lead", "trail ", "two  spaces", "tab\there",
		"nl\nhere", "a<b>c", "x &amp; y", "caf\xc3\xa9", "\xff", "a>b", strings.Repeat("word ", 300) + "end",
		strings.Repeat("x", 800), strings.Repeat("x", 801), "del\x7f",
	} {
		for _, max := range []int{5, 200} {
			assert.Equal(t, markupFragmentText([]byte(s), max), fragmentText([]byte(s), max), "%q %d", s, max)
		}
	}
}
