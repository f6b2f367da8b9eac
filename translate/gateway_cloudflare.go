package translate

import (
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// cloudflareCode is one Cloudflare 1xxx error: the toolerr code it means and
// a one-line description for the message when the body gives none.
type cloudflareCode struct {
	code, desc string
}

// cloudflareCodes are Cloudflare's documented 1xxx errors. The 52x statuses
// are in the classifier's status table and need no entry.
var cloudflareCodes = map[string]cloudflareCode{
	// DNS and zone configuration: the tool calls a host Cloudflare cannot
	// route; no retry or argument change helps.
	"1000": {toolerr.CodeUpstreamMisconfigured, "DNS points to a prohibited IP"},
	"1001": {toolerr.CodeUpstreamMisconfigured, "DNS resolution error"},
	"1002": {toolerr.CodeUpstreamMisconfigured, "DNS points to a prohibited IP"},
	"1003": {toolerr.CodeUpstreamMisconfigured, "Direct IP access not allowed"},
	"1004": {toolerr.CodeUpstreamMisconfigured, "Host not configured to serve web traffic"},
	"1013": {toolerr.CodeUpstreamMisconfigured, "HTTP hostname and TLS SNI hostname mismatch"},
	"1014": {toolerr.CodeUpstreamMisconfigured, "CNAME cross-user banned"},
	"1016": {toolerr.CodeUpstreamMisconfigured, "Origin DNS error"},
	"1018": {toolerr.CodeUpstreamMisconfigured, "Could not find host"},
	"1023": {toolerr.CodeUpstreamMisconfigured, "Could not find host"},
	"1034": {toolerr.CodeUpstreamMisconfigured, "Edge IP restricted"},
	"1035": {toolerr.CodeUpstreamMisconfigured, "Invalid request rewrite"},
	"1036": {toolerr.CodeUpstreamMisconfigured, "Invalid request rewrite"},
	"1037": {toolerr.CodeUpstreamMisconfigured, "Invalid rewrite rule"},
	"1040": {toolerr.CodeUpstreamMisconfigured, "Invalid request rewrite"},
	"1041": {toolerr.CodeUpstreamMisconfigured, "Invalid request rewrite"},
	"1042": {toolerr.CodeUpstreamMisconfigured, "Worker fetch to a Cloudflare zone not allowed"},
	"1104": {toolerr.CodeUpstreamMisconfigured, "Worker script not found"},
	// Security: the zone's rules refuse this client. Never retry.
	"1005": {toolerr.CodePolicyBlocked, "Access denied: banned ASN"},
	"1006": {toolerr.CodePolicyBlocked, "Access denied: IP banned"},
	"1007": {toolerr.CodePolicyBlocked, "Access denied: IP banned"},
	"1008": {toolerr.CodePolicyBlocked, "Access denied: IP banned"},
	"1009": {toolerr.CodePolicyBlocked, "Access denied: country or region banned"},
	"1010": {toolerr.CodePolicyBlocked, "Access denied: browser signature banned"},
	"1011": {toolerr.CodePolicyBlocked, "Access denied: hotlinking denied"},
	"1012": {toolerr.CodePolicyBlocked, "Access denied"},
	"1020": {toolerr.CodePolicyBlocked, "Access denied: firewall rule"},
	// Rate limiting rule: wait and retry.
	"1015": {toolerr.CodeRateLimited, "Rate limited"},
	// Workers plan limits: the daily allowance is spent.
	"1025": {toolerr.CodeQuotaExhausted, "Workers request limit exceeded"},
	"1027": {toolerr.CodeQuotaExhausted, "Worker exceeded the free tier daily request limit"},
	// Passing failures at the edge or the tunnel.
	"1033": {toolerr.CodeUpstreamUnavailable, "Cloudflare Tunnel error"},
	"1200": {toolerr.CodeUpstreamUnavailable, "Cache connection limit"},
	// A Worker failed: the origin's own bug, as unexplained as a bare 500.
	"1019": {toolerr.CodeUpstreamUnclassified, "Compute server error"},
	"1101": {toolerr.CodeUpstreamUnclassified, "Worker threw exception"},
	"1102": {toolerr.CodeUpstreamUnclassified, "Worker exceeded resource limits"},
}

// cloudflare5xx names the 52x statuses Cloudflare's edge answers with, for
// the message of their plain-text form ("error code: 521"). The status
// table classifies them.
var cloudflare5xx = map[string]string{
	"520": "Web server is returning an unknown error",
	"521": "Web server is down",
	"522": "Connection timed out",
	"523": "Origin is unreachable",
	"524": "A timeout occurred",
	"525": "SSL handshake failed",
	"526": "Invalid SSL certificate",
	"527": "Railgun error",
	"530": "Origin error",
}

// cloudflareMarkers are strings only Cloudflare's own pages carry. Not
// "/cdn-cgi/" nor "challenge-platform": Cloudflare injects those scripts
// (email obfuscation, bot detection) into the origin's own pages too.
var cloudflareMarkers = []string{
	"cf-error-details", "cf-wrapper", "cf-error-code", "cf_chl_opt",
	"cf-browser-verification", "cloudflare ray id", "<title>just a moment...</title>",
	"attention required! | cloudflare",
}

// cloudflareRecognizes reports whether r was made by Cloudflare's edge: a
// Cloudflare header (Server: cloudflare or CF-RAY) and a body of
// Cloudflare's own, the "error code: NNNN" line or a page with Cloudflare's
// markup.
func cloudflareRecognizes(r *Raw) bool {
	// The body's shape first: it is read once per translation, and a JSON
	// body, the usual error, is refused without a header lookup.
	text := isPlainTextBody(r)
	if !text && !isHTMLPage(r) {
		return false
	}
	if r.server() != "cloudflare" && canonheader.Value(r.Header, "Cf-Ray") == "" {
		return false
	}
	if text {
		return asciifold.HasPrefix(trimLeftSpace(r.Body), "error code:")
	}
	for _, m := range cloudflareMarkers {
		if asciifold.Contains(pageHead(r.Body), m) {
			return true
		}
	}
	return false
}

// cloudflareTranslate reads the responses Cloudflare's edge makes itself: the
// 52x pages (the origin failed), the 1xxx pages and their plain-text form
// "error code: 1020" (the zone's security or configuration refused the
// request), and the bot challenge pages. A vendor's own error that merely
// passed through Cloudflare (Server: cloudflare and a JSON body) is not
// claimed.
//
// It reads the 1xxx code (as VendorCode), the page's title or the
// code's description (as Message), the CF-RAY (as RequestID), and marks
// challenge and block pages as challenges.
func cloudflareTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: strings.TrimSpace(canonheader.Value(r.Header, "Cf-Ray"))}
	text := isPlainTextBody(r)
	code := cloudflareErrorCode(r.Body, !text)
	if len(code) == 4 && code[0] == '1' {
		// A 52x number only repeats the status; a 1xxx code says more.
		o.VendorCode = code
	}
	if text {
		o.Message = firstTextLine(r.Body)
		if c, ok := cloudflareCodes[o.VendorCode]; ok {
			o.Message = c.desc
		} else if d, ok := cloudflare5xx[code]; ok {
			o.Message = code + ": " + d
		}
		return o, true
	}
	title := pageElement(r.Body, "title")
	o.Message = cloudflareTitle(title)
	if cloudflareChallenge(r.Body, title) {
		o.Evidence.Challenge = true
	}
	if o.Message == "" {
		if c, ok := cloudflareCodes[o.VendorCode]; ok {
			o.Message = c.desc
		}
	}
	return o, true
}

// The ways a Cloudflare body states its error number, in the order they are
// looked for: the plain-text reply's "error code: 1020" first in a text
// body; in a page, the forms of Cloudflare's page templates ("Error code
// 522" on the 52x pages, <span class="cf-error-code">1020 on the 1xxx
// pages) before the plain-text form. Each search that finds nothing reads
// the whole page, so the likely form goes first.
var (
	cloudflareTextCodeForms = [...]string{"error code:", "error code ", `cf-error-code">`}
	cloudflarePageCodeForms = [...]string{"error code ", `cf-error-code">`, "error code:"}
)

// cloudflareErrorCode returns the error number a Cloudflare body states
// ("error code: 1020", "Error code 522", <span class="cf-error-code">1020),
// or "": the first of the forms, in the order of a page's or a text's,
// that is followed by three or four digits.
func cloudflareErrorCode(body []byte, page bool) string {
	head := pageHead(body)
	forms := cloudflareTextCodeForms
	if page {
		forms = cloudflarePageCodeForms
	}
	for _, p := range forms {
		i := asciifold.Index(head, p)
		if i < 0 {
			continue
		}
		rest := head[i+len(p):]
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			rest = rest[1:]
		}
		n := 0
		for n < len(rest) && n < 5 && isDigitByte(rest[n]) {
			n++
		}
		if n == 3 || n == 4 {
			return string(rest[:n])
		}
	}
	return ""
}

// cloudflareTitle picks the useful part of a Cloudflare page title: in
// "api.example.com | 522: Connection timed out" the part that starts with
// the status, else the first part ("Access denied | … used Cloudflare").
func cloudflareTitle(title string) string {
	first, _, _ := strings.Cut(title, " | ")
	for rest := title; ; {
		p, after, more := strings.Cut(rest, " | ")
		if p = strings.TrimSpace(p); p != "" && isDigitByte(p[0]) {
			return p
		}
		if !more {
			break
		}
		rest = after
	}
	return strings.TrimSpace(first)
}

// cloudflareChallenge reports whether a Cloudflare page is a bot challenge
// ("Just a moment...") or a WAF block page ("Attention Required!", "Sorry,
// you have been blocked"): a policy decision about this client.
func cloudflareChallenge(body []byte, title string) bool {
	// asciifold.HasPrefix is ASCII-only: as strings.ToLower then HasPrefix, as no
	// non-ASCII rune lowers to the ASCII needed here.
	t := []byte(title[:min(len(title), len("attention required"))])
	if asciifold.HasPrefix(t, "just a moment") || asciifold.HasPrefix(t, "attention required") {
		return true
	}
	return asciifold.Contains(pageHead(body), "cf_chl_opt") || asciifold.Contains(pageHead(body), "sorry, you have been blocked")
}

// cloudflareCodeTable maps Cloudflare's 1xxx codes.
func cloudflareCodeTable() map[string]string {
	m := make(map[string]string, len(cloudflareCodes))
	for k, v := range cloudflareCodes {
		m[k] = v.code
	}
	return m
}
