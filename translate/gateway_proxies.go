package translate

import (
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// nginxRecognizes reports whether r is nginx's own error page: the page carries
// nginx's signature line, or Server names nginx and the page's title is
// nginx's "<status> <reason>".
func nginxRecognizes(r *Raw) bool {
	if !isHTMLPage(r) {
		return false
	}
	if asciifold.Contains(pageHead(r.Body), "<center>nginx") || asciifold.Contains(pageHead(r.Body), "<center>openresty") {
		return true
	}
	server := r.server()
	if !strings.HasPrefix(server, "nginx") && !strings.HasPrefix(server, "openresty") {
		return false
	}
	return isStatusTitle(pageElement(r.Body, "title"))
}

// nginxTranslate reads nginx's (and OpenResty's) built-in error pages:
// "<title>502 Bad Gateway</title>" with the "<center>nginx</center>"
// signature. The status decides the class; the page only names it.
//
// It returns the page's title ("504 Gateway Time-out") as Message.
func nginxTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	msg := pageElement(r.Body, "title")
	if msg == "" {
		msg = pageElement(r.Body, "h1")
	}
	return classify.Outcome{Message: msg, RequestID: strings.TrimSpace(canonheader.Value(r.Header, "X-Request-Id"))}, true
}

// envoyReplies are the first words of Envoy's local replies, lower case.
var envoyReplies = []string{
	envoyConnectError,
	"no healthy upstream",
	"upstream request timeout",
	"upstream max stream duration reached",
	"upstream reset:",
	"local_rate_limited",
	"rbac: access denied",
	"jwt is missing",
	"jwt is expired",
	"jwt verification fails",
	"stream timeout",
	"request overall timeout",
}

// envoyConnectError starts Envoy's reply to a stream reset before the
// upstream's response headers. No other server writes it, so the body
// alone names Envoy: a proxy in front of Envoy, or Envoy configured to
// overwrite or strip its Server header, leaves no Envoy header.
const envoyConnectError = "upstream connect error or disconnect/reset before headers"

// envoySafeResets are the reset reasons (Envoy's names of its stream reset
// reasons, lower case) that mean the request never reached the upstream,
// so any method may be retried: the connection to the upstream was never
// made ("connection failure", "local connection failure", "remote
// connection failure", "connection timeout"), the circuit breaker or
// pool refused the request before it was sent ("overflow"), or the stream
// was refused, which HTTP/2 (RFC 9113 §8.7) guarantees means unprocessed
// ("remote refused stream reset", "local refused stream reset"). Every
// other reason may come after the request was sent, and a non-idempotent
// call is then not to be retried: "connection termination" (the upstream
// closed the connection), "remote reset", "local reset", "protocol
// error", "overload manager reset", "HTTP/1 premature upstream half
// close", and any reason Envoy adds later.
var envoySafeResets = map[string]bool{
	"connection failure":          true,
	"local connection failure":    true,
	"remote connection failure":   true,
	"connection timeout":          true,
	"overflow":                    true,
	"remote refused stream reset": true,
	"local refused stream reset":  true,
}

// envoyRecognizes reports whether r is an Envoy local reply: the body is one of
// Envoy's plain-text replies, and Server names Envoy ("envoy",
// "istio-envoy") or an x-envoy-* header is present. The reply to a reset
// before headers (envoyConnectError) is Envoy's without either header.
func envoyRecognizes(r *Raw) bool {
	if !isPlainTextBody(r) {
		return false
	}
	b := trimLeftSpace(r.Body)
	if asciifold.HasPrefix(b, envoyConnectError) {
		return true
	}
	if !envoyHeaders(r) {
		return false
	}
	for _, p := range envoyReplies {
		if asciifold.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// envoyHeaders reports whether r's headers name Envoy.
func envoyHeaders(r *Raw) bool {
	if strings.Contains(r.server(), "envoy") {
		return true
	}
	for k := range r.Header {
		if asciifold.HasPrefix(k, "x-envoy-") {
			return true
		}
	}
	return false
}

// envoyTranslate reads the plain-text local replies of Envoy (and Istio,
// Emissary, Contour and other Envoy-based proxies): "upstream connect error
// or disconnect/reset before headers. reset reason: connection failure",
// "no healthy upstream", "upstream request timeout".
//
// It returns the reply line as Message and the reset reason as
// details["reset_reason"]. A reset whose reason does not prove the request
// never reached the upstream ("connection termination", "remote reset") may
// have run it: a non-idempotent call is then not to be retried.
func envoyTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	line := firstTextLine(r.Body)
	o := classify.Outcome{Message: line, RequestID: strings.TrimSpace(canonheader.Value(r.Header, "X-Request-Id"))}
	if reason := envoyResetReason(line); reason != "" {
		o.Details = map[string]any{"reset_reason": reason}
		if !envoySafeResets[reason] && !idempotentRequest(r) {
			o.Evidence.Retry = classify.AdviceDoNotRetry
		}
	}
	return o, true
}

// envoyResetReason returns the reset reason of an Envoy reply line, lower
// case: "connection failure" in "… reset reason: connection failure,
// transport failure reason: …".
func envoyResetReason(line string) string {
	const key = "reset reason: "
	lower := strings.ToLower(line)
	i := strings.LastIndex(lower, key)
	if i < 0 {
		return ""
	}
	reason := lower[i+len(key):]
	if j := strings.IndexAny(reason, ",;"); j >= 0 {
		reason = reason[:j]
	}
	return strings.TrimSpace(reason)
}
