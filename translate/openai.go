package translate

import (
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// openAIRecognizes claims a response with OpenAI's own headers. The body
// shape is shared by every OpenAI-compatible API, so it is not enough.
func openAIRecognizes(r *Raw) bool {
	for _, h := range [...]string{"Openai-Organization", "Openai-Processing-Ms", "Openai-Version", "Openai-Project"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}

// openAITranslate reads OpenAI API errors:
//
//	{"error": {"message": "…", "type": "invalid_request_error",
//	  "param": "messages", "code": "context_length_exceeded"}}
//
// with the request id in x-request-id. The vendor code is error.code, else
// error.type unless that is the catch-all invalid_request_error (a missing
// key on a 401, an unknown URL on a 404), which the status decides. A 429
// is either a rate limit (rate_limit_exceeded: wait) or an exhausted quota
// (insufficient_quota: do not retry). Without a retry-after header, a rate
// limit waits for the x-ratelimit-reset-requests or -tokens header (Go
// durations) of the limit that was hit, else for the delay the message
// names ("Please try again in 1.5s").
//
// It reads an OpenAI error body. OpenAI answers errors with 4xx and
// 5xx statuses only, so a 2xx is never one.
func openAITranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	_, typ, o, ok := typedError(r)
	if !ok {
		return classify.Outcome{}, false
	}
	o.RequestID = canonheader.Value(r.Header, "X-Request-Id")
	switch openAICodes[o.VendorCode] {
	case toolerr.CodeQuotaExhausted, toolerr.CodePaymentRequired:
		// Billing does not recover by waiting, whatever x-should-retry says.
		o.Evidence.Retry = classify.AdviceDoNotRetry
	case toolerr.CodeRateLimited:
		o.Delay = openAIDelay(r, typ, o.Message)
	default:
		if r.Status == http.StatusTooManyRequests {
			o.Delay = openAIDelay(r, typ, o.Message)
		}
	}
	return o, true
}

// openAIDelay is the wait of a rate limit without a retry-after header: the
// reset of the limit that was hit (the error type, the message or a
// remaining count of 0 says which), the shorter reset when that is
// unknown, and the message's "try again in …" when no reset header
// parses. 0 leaves the delay to the classifier.
func openAIDelay(r *Raw, typ, msg string) time.Duration {
	if hasRetryDelay(r) {
		return 0
	}
	lower := strings.ToLower(msg)
	requests := typ == "requests" || strings.Contains(lower, "requests per") || strings.Contains(lower, "(rpm)") || strings.Contains(lower, "(rpd)")
	tokens := typ == "tokens" || strings.Contains(lower, "tokens per") || strings.Contains(lower, "(tpm)") || strings.Contains(lower, "(tpd)")
	if !requests && !tokens {
		requests = strings.TrimSpace(canonheader.Value(r.Header, "X-Ratelimit-Remaining-Requests")) == "0"
		tokens = strings.TrimSpace(canonheader.Value(r.Header, "X-Ratelimit-Remaining-Tokens")) == "0"
	}
	reqDelay, reqOK := openAIReset(r, "X-Ratelimit-Reset-Requests")
	tokDelay, tokOK := openAIReset(r, "X-Ratelimit-Reset-Tokens")
	switch {
	case requests && tokens && reqOK && tokOK:
		return max(reqDelay, tokDelay) // both exhausted: both must reset
	case requests && reqOK:
		return reqDelay
	case tokens && tokOK:
		return tokDelay
	case !requests && !tokens && reqOK && tokOK:
		return min(reqDelay, tokDelay)
	case !requests && !tokens && reqOK:
		return reqDelay
	case !requests && !tokens && tokOK:
		return tokDelay
	}
	return openAIMessageDelay(msg)
}

// openAIReset reads one x-ratelimit-reset-* header, a Go duration.
func openAIReset(r *Raw, name string) (time.Duration, bool) {
	d, ok := classify.ParseDelay(classify.GoDuration, r.Header.Get(name), time.Time{}, 0)
	return d, ok && d > 0
}

// openAIMessageDelay reads "Please try again in 1.5s." (a Go duration)
// from a rate-limit message; 0 when there is none.
func openAIMessageDelay(msg string) time.Duration {
	const marker = "try again in "
	i := strings.Index(strings.ToLower(msg), marker)
	if i < 0 {
		return 0
	}
	rest := msg[i+len(marker):]
	end := 0
	for end < len(rest) && end < 32 && (rest[end] == '.' || isLetter(rest[end]) || rest[end] >= '0' && rest[end] <= '9') {
		end++
	}
	v := strings.TrimSuffix(rest[:end], ".")
	d, ok := classify.ParseDelay(classify.GoDuration, v, time.Time{}, 0)
	if !ok {
		return 0
	}
	return d
}

// openAICodes is OpenAI's table.
var openAICodes = map[string]string{
	// Limits and billing.
	"rate_limit_exceeded":        toolerr.CodeRateLimited,
	"requests":                   toolerr.CodeRateLimited, // type of a rate limit without a code
	"tokens":                     toolerr.CodeRateLimited,
	"insufficient_quota":         toolerr.CodeQuotaExhausted,
	"billing_hard_limit_reached": toolerr.CodeQuotaExhausted,
	"billing_not_active":         toolerr.CodePaymentRequired,

	// Credentials, access and policy.
	"invalid_api_key":                      toolerr.CodeUnauthenticated,
	"invalid_organization":                 toolerr.CodeUnauthenticated,
	"no_such_organization":                 toolerr.CodeUnauthenticated,
	"mismatched_organization":              toolerr.CodeUnauthenticated,
	"insufficient_permissions":             toolerr.CodePermissionDenied,
	"model_not_available":                  toolerr.CodePermissionDenied,
	"unsupported_country_region_territory": toolerr.CodePolicyBlocked,
	"access_terminated":                    toolerr.CodePolicyBlocked,
	"account_deactivated":                  toolerr.CodePolicyBlocked,
	"content_policy_violation":             toolerr.CodePolicyBlocked,
	"content_filter":                       toolerr.CodePolicyBlocked,
	"invalid_prompt":                       toolerr.CodePolicyBlocked, // a prompt flagged by the usage policy

	// The request.
	"model_not_found":            toolerr.CodeNotFound,
	"context_length_exceeded":    toolerr.CodePayloadTooLarge,
	"string_above_max_length":    toolerr.CodeValidationFailed,
	"invalid_value":              toolerr.CodeValidationFailed,
	"invalid_type":               toolerr.CodeValidationFailed,
	"missing_required_parameter": toolerr.CodeValidationFailed,
	"unknown_parameter":          toolerr.CodeValidationFailed,
	"unsupported_parameter":      toolerr.CodeValidationFailed,
	"unsupported_value":          toolerr.CodeValidationFailed,
	"integer_below_min_value":    toolerr.CodeValidationFailed,
	"integer_above_max_value":    toolerr.CodeValidationFailed,
	"decimal_below_min_value":    toolerr.CodeValidationFailed,
	"decimal_above_max_value":    toolerr.CodeValidationFailed,
	"empty_array":                toolerr.CodeValidationFailed,
	"array_above_max_length":     toolerr.CodeValidationFailed,
	"invalid_image":              toolerr.CodeValidationFailed,
	"invalid_image_url":          toolerr.CodeValidationFailed,

	// OpenAI's own failures: transient by its documentation, and the
	// official clients retry them.
	"server_error":      toolerr.CodeUpstreamUnavailable,
	"engine_overloaded": toolerr.CodeUpstreamUnavailable,
}
