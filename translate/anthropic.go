package translate

import (
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// anthropicLimits are the limits Anthropic reports in
// anthropic-ratelimit-<limit>-remaining and -reset headers.
var anthropicLimits = [...]string{"requests", "tokens", "input-tokens", "output-tokens"}

// anthropicRecognizes claims a response with Anthropic's headers (its
// organization id, its rate-limit headers) or Anthropic's error body: a
// top-level "type": "error" beside an "error" object with a type.
func anthropicRecognizes(r *Raw) bool {
	if canonheader.Value(r.Header, "Anthropic-Organization-Id") != "" {
		return true
	}
	for _, limit := range anthropicLimits {
		if r.Header.Get("Anthropic-Ratelimit-"+limit+"-Reset") != "" {
			return true
		}
	}
	if r.object().str("type") != "error" {
		return false
	}
	e := r.errorObject()
	return e != nil && e.str("type") != ""
}

// anthropicTranslate reads Anthropic API errors:
//
//	{"type": "error",
//	 "error": {"type": "rate_limit_error", "message": "…", "details": {"error_code": "…"}},
//	 "request_id": "req_…"}
//
// with the request id also in the request-id header. The vendor code is
// error.details.error_code when present (enforced_spend_limit_reached),
// else error.type. A 400 whose message says the credit balance is too low
// is Anthropic's billing error, which it also sends as 402 billing_error.
// Without a retry-after header, a rate limit waits for the
// anthropic-ratelimit-*-reset instant (RFC 3339) of the limit that was hit.
//
// It reads an Anthropic error body. Anthropic answers errors with
// 4xx and 5xx statuses only, so a 2xx is never one.
func anthropicTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	m, e := r.object(), r.errorObject()
	if e == nil {
		return classify.Outcome{}, false
	}
	typ, msg := e.str("type"), e.str("message")
	if typ == "" && msg == "" {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{VendorCode: typ, Message: msg, RequestID: m.str("request_id")}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "Request-Id")
	}
	if details := e.obj("details"); details != nil {
		if code := details.str("error_code"); code != "" {
			o.VendorCode = code
		}
	}
	lower := strings.ToLower(msg)
	if typ == "invalid_request_error" && o.VendorCode == typ {
		switch {
		case strings.Contains(lower, "credit balance"):
			o.VendorCode = "billing_error"
		case strings.Contains(lower, "spend limit") || strings.Contains(lower, "usage limits"):
			o.VendorCode = "enforced_spend_limit_reached"
		case r.Status == http.StatusRequestEntityTooLarge:
			// The catch-all type on a 413 is Anthropic's request_too_large.
			o.ClassCode = "request_too_large"
		default:
			o.Field = anthropicField(msg)
		}
	}
	switch anthropicCodes[o.VendorCode] {
	case toolerr.CodeQuotaExhausted, toolerr.CodePaymentRequired:
		// Billing does not recover by waiting, whatever x-should-retry says.
		o.Evidence.Retry = classify.AdviceDoNotRetry
	case toolerr.CodeRateLimited:
		o.Delay = anthropicDelay(r)
	default:
		if r.Status == http.StatusTooManyRequests {
			o.Delay = anthropicDelay(r)
		}
	}
	return o, true
}

// anthropicField reads the parameter path that starts a validation message
// ("max_tokens: Field required", "messages.0.content: …"); "" when the
// message starts otherwise.
func anthropicField(msg string) string {
	path, _, found := strings.Cut(msg, ": ")
	if !found || path == "" || len(path) > 128 || path[0] < 'a' || path[0] > 'z' {
		return ""
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' || c == '[' || c == ']') {
			return ""
		}
	}
	return path
}

// anthropicDelay is the wait of a rate limit without a retry-after header:
// the reset instant of the limits that were hit (remaining 0; the latest
// of them, as all must reset), else the earliest reset reported. Instants
// are read against the response's Date. 0 leaves the delay to the
// classifier.
func anthropicDelay(r *Raw) time.Duration {
	if hasRetryDelay(r) {
		return 0
	}
	now := responseNow(r)
	var hit, earliest time.Duration
	for _, limit := range anthropicLimits {
		prefix := "Anthropic-Ratelimit-" + limit
		d, ok := classify.ParseDelay(classify.Instant, r.Header.Get(prefix+"-Reset"), now, 0)
		if !ok || d <= 0 {
			continue
		}
		if strings.TrimSpace(r.Header.Get(prefix+"-Remaining")) == "0" {
			hit = max(hit, d)
		}
		if earliest == 0 || d < earliest {
			earliest = d
		}
	}
	if hit > 0 {
		return hit
	}
	return earliest
}

// anthropicCodes is Anthropic's table. api_error and overloaded_error
// (HTTP 529) are transient by Anthropic's documentation, and its clients
// retry them.
var anthropicCodes = map[string]string{
	"invalid_request_error":        toolerr.CodeValidationFailed,
	"authentication_error":         toolerr.CodeUnauthenticated,
	"permission_error":             toolerr.CodePermissionDenied,
	"not_found_error":              toolerr.CodeNotFound,
	"request_too_large":            toolerr.CodePayloadTooLarge,
	"rate_limit_error":             toolerr.CodeRateLimited,
	"billing_error":                toolerr.CodePaymentRequired,
	"enforced_spend_limit_reached": toolerr.CodeQuotaExhausted,
	"api_error":                    toolerr.CodeUpstreamUnavailable,
	"overloaded_error":             toolerr.CodeUpstreamUnavailable,
	"timeout_error":                toolerr.CodeUpstreamTimeout,
}
