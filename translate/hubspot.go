package translate

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// hubSpotRecognizes claims a response with HubSpot's correlation-id or
// rate-limit headers, or a body with "status": "error" and a
// "correlationId".
func hubSpotRecognizes(r *Raw) bool {
	h := r.Header
	if canonheader.Value(h, "X-Hubspot-Correlation-Id") != "" || canonheader.Value(h, "X-Hubspot-Ratelimit-Max") != "" ||
		canonheader.Value(h, "X-Hubspot-Ratelimit-Daily") != "" || canonheader.Value(h, "X-Hubspot-Ratelimit-Interval-Milliseconds") != "" {
		return true
	}
	if !bytes.Contains(r.Body, []byte(`"correlationId"`)) {
		return false
	}
	b := r.object()
	return b.str("status") == "error" && b.str("correlationId") != ""
}

// hubSpotRetryHeaders are the delay headers the classifier reads itself;
// when one is present the translator leaves the delay to it.
var hubSpotRetryHeaders = [...]string{"Retry-After", "Retry-After-Ms", "X-Ms-Retry-After-Ms", "X-Amz-Retry-After"}

// hubSpotTranslate reads HubSpot's error bodies:
//
//	{"status": "error", "message": …, "correlationId": …,
//	 "category": "VALIDATION_ERROR", "subCategory": …,
//	 "errors": [{"message", "in", "code", "context": {"propertyName": [...]}}]}
//
// The vendor code is the category (older APIs write errorType). A rate
// limit's code is its policyName instead, because the policy decides the
// class: the rolling ten-second (TEN_SECONDLY_ROLLING) and the per-second
// (SECONDLY) burst limits pass in seconds, the DAILY limit does not until
// midnight in the account's time zone.
//
// It reads a HubSpot error body from 400 on; below 400 nothing is
// an error (a 207 multi-status batch reports its failures as data).
func hubSpotTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: canonheader.Value(r.Header, "X-Hubspot-Correlation-Id")}
	b := r.object()
	o.Message = b.str("message")
	if id := b.str("correlationId"); id != "" {
		o.RequestID = id
	} else if o.RequestID == "" {
		o.RequestID = b.str("requestId")
	}
	category := b.str("category")
	if category == "" {
		category = b.str("errorType")
	}
	o.VendorCode = category
	details := map[string]any{}
	if sub := b.str("subCategory"); sub != "" {
		details["sub_category"] = sub
	}
	if first := b.first("errors"); first != nil {
		if o.Message == "" {
			o.Message = first.str("message")
		}
		if code := first.str("code"); code != "" {
			details["error_code"] = code
		}
		o.Field = hubSpotField(first)
	}
	if category == "RATE_LIMITS" || category == "RATE_LIMIT" || r.Status == http.StatusTooManyRequests {
		hubSpotRateLimit(r, b.str("policyName"), &o, details)
	}
	if len(details) > 0 {
		o.Details = details
	}
	return o, true
}

// hubSpotRateLimit reads a rate limit: the policy becomes the vendor code
// (DAILY also when the policy is unnamed but the daily remainder is 0),
// and a burst limit without a retry-after header waits one interval of
// X-HubSpot-RateLimit-Interval-Milliseconds, the window the burst limit
// counts in.
func hubSpotRateLimit(r *Raw, policy string, o *classify.Outcome, details map[string]any) {
	if policy == "" && strings.TrimSpace(canonheader.Value(r.Header, "X-Hubspot-Ratelimit-Daily-Remaining")) == "0" {
		policy = "DAILY"
	}
	if policy != "" {
		if o.VendorCode != "" {
			details["category"] = o.VendorCode
		}
		details["policy_name"] = policy
		o.VendorCode = policy
	}
	if policy == "DAILY" {
		return
	}
	o.Evidence.RateLimited = true
	for _, name := range hubSpotRetryHeaders {
		if strings.TrimSpace(r.Header.Get(name)) != "" {
			return
		}
	}
	if d, ok := classify.ParseDelay(classify.Milliseconds, canonheader.Value(r.Header, "X-Hubspot-Ratelimit-Interval-Milliseconds"), time.Time{}, 0); ok {
		o.Delay = d
	}
}

// hubSpotField returns the property an error item names: its
// context.propertyName (a string or the first of a list), else its "in".
func hubSpotField(item jsonObject) string {
	if name := stringOrFirst(item.obj("context").get("propertyName")); name != "" {
		return name
	}
	return item.str("in")
}

// hubSpotCodes maps HubSpot's error categories and rate-limit policy names.
var hubSpotCodes = map[string]string{
	"VALIDATION_ERROR":       toolerr.CodeValidationFailed,
	"OBJECT_NOT_FOUND":       toolerr.CodeNotFound,
	"INVALID_AUTHENTICATION": toolerr.CodeUnauthenticated,
	"EXPIRED_AUTHENTICATION": toolerr.CodeUnauthenticated,
	"MISSING_SCOPES":         toolerr.CodePermissionDenied,
	"BANNED":                 toolerr.CodePolicyBlocked,
	"CONFLICT":               toolerr.CodeConflict,
	"OBJECT_ALREADY_EXISTS":  toolerr.CodeConflict,
	"RATE_LIMITS":            toolerr.CodeRateLimited,
	"RATE_LIMIT":             toolerr.CodeRateLimited, // errorType of older APIs
	"TEN_SECONDLY_ROLLING":   toolerr.CodeRateLimited,
	"SECONDLY":               toolerr.CodeRateLimited,
	"DAILY":                  toolerr.CodeQuotaExhausted,
}
