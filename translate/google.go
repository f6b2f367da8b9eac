package translate

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// googlePerDay is appended to a rate-limit vendor code when the quota it
// names is a per-day one: waiting seconds does not help, so the table maps
// the qualified code to QUOTA_EXHAUSTED.
const googlePerDay = "/PerDay"

// googleTypePrefix starts the @type of every google.rpc error detail.
const googleTypePrefix = "type.googleapis.com/google.rpc."

// googleRecognizes reports whether a response of unknown host is a Google API
// error: an error object with a numeric code and either a google.rpc.Code
// status name, legacy errors[] with domain and reason, or google.rpc typed
// details.
func googleRecognizes(r *Raw) bool {
	if !bytes.Contains(r.Body, []byte(`"error"`)) {
		return false
	}
	e, _, ok := googleErrorOf(r)
	if !ok {
		return false
	}
	if _, ok := e.integer("code"); !ok {
		return false
	}
	if googleStatusNames[e.str("status")] {
		return true
	}
	for _, item := range e.items("errors") {
		if m := readObject(item); m.str("domain") != "" && m.str("reason") != "" {
			return true
		}
	}
	for _, item := range e.items("details") {
		if strings.HasPrefix(readObject(item).str("@type"), googleTypePrefix) {
			return true
		}
	}
	return false
}

// googleErrorOf returns the error object of a Google error body, or the
// OAuth error code when the body is {"error":"…"} (then e is the whole
// body). Some APIs wrap the error in an array: [{"error":{…}}].
func googleErrorOf(r *Raw) (e jsonObject, oauthCode string, ok bool) {
	top := r.object()
	if top != nil {
		if code := top.str("error"); code != "" {
			return top, code, true
		}
		e = r.errorObject()
		return e, "", e != nil
	}
	{
		b := trimLeftSpace(r.Body)
		if len(b) == 0 || b[0] != '[' {
			return nil, "", false
		}
		items := readArray(b)
		if len(items) == 0 {
			return nil, "", false
		}
		top = readObject(items[0])
	}
	if top == nil {
		return nil, "", false
	}
	if code := top.str("error"); code != "" {
		return top, code, true
	}
	e = top.obj("error")
	return e, "", e != nil
}

// googleDetails is what the typed details of a google.rpc.Status say.
type googleDetails struct {
	reason   string            // ErrorInfo.reason
	metadata map[string]string // ErrorInfo.metadata
	domain   string            // ErrorInfo.domain
	delay    time.Duration     // RetryInfo.retryDelay
	field    string            // BadRequest.fieldViolations[0].field
	// violations are BadRequest.fieldViolations, fields as JSON pointers.
	violations []toolerr.Violation
	quotaIDs   []string // QuotaFailure.violations[].quotaId, quotaMetric, subject
	docURL     string   // Help.links[0].url
	requestID  string   // RequestInfo.requestId
	localized  string   // LocalizedMessage.message
}

// readGoogleDetails reads the typed details of an error object, keeping
// the first of each kind.
func readGoogleDetails(e jsonObject) googleDetails {
	var d googleDetails
	for _, item := range e.items("details") {
		m := readObject(item)
		switch strings.TrimPrefix(m.str("@type"), googleTypePrefix) {
		case "ErrorInfo":
			if d.reason == "" {
				d.reason, d.domain = m.str("reason"), m.str("domain")
				d.metadata = googleMetadata(m.get("metadata"))
			}
		case "RetryInfo":
			if v, ok := classify.ParseDelay(classify.ProtoDuration, m.str("retryDelay"), time.Time{}, 0); ok && d.delay == 0 {
				d.delay = v
			}
		case "BadRequest":
			for _, fv := range m.items("fieldViolations") {
				fm := readObject(fv)
				f := fm.str("field")
				if f != "" && d.field == "" {
					d.field = f
				}
				if len(d.violations) < toolerr.MaxViolations {
					d.violations = append(d.violations, toolerr.Violation{Field: classify.FieldPointer(f), Reason: fm.str("description")})
				}
			}
		case "QuotaFailure":
			for _, v := range m.items("violations") {
				vm := readObject(v)
				for _, k := range [...]string{"quotaId", "quotaMetric", "subject", "description"} {
					if s := vm.str(k); s != "" {
						d.quotaIDs = append(d.quotaIDs, s)
					}
				}
			}
		case "Help":
			for _, l := range m.items("links") {
				if u := readObject(l).str("url"); u != "" && d.docURL == "" {
					d.docURL = u
				}
			}
		case "RequestInfo":
			if d.requestID == "" {
				d.requestID = m.str("requestId")
			}
		case "LocalizedMessage":
			if d.localized == "" {
				d.localized = m.str("message")
			}
		}
	}
	return d
}

// googleMetadata reads ErrorInfo.metadata, a map of strings.
func googleMetadata(raw json.RawMessage) map[string]string {
	m := readObject(raw)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range m.keys() {
		if v := m.str(k); v != "" {
			out[k] = v
		}
	}
	return out
}

// googlePerDayQuota reports whether the quota the error names is a per-day
// one ("DefaultRequestsPerDayPerProject", "… per day …").
func googlePerDayQuota(d googleDetails) bool {
	perDay := func(s string) bool {
		s = strings.ToLower(s)
		return strings.Contains(s, "perday") || strings.Contains(s, "per day") || strings.Contains(s, "per-day")
	}
	for _, k := range [...]string{"quota_limit", "quota_metric", "quota_id", "quotaLimit", "quotaMetric"} {
		if perDay(d.metadata[k]) {
			return true
		}
	}
	for _, s := range d.quotaIDs {
		if perDay(s) {
			return true
		}
	}
	return false
}

// googleTranslate reads Google APIs' errors: the google.rpc.Status JSON
// form ({"error":{"code","message","status","details":[…]}}) with its typed
// details (ErrorInfo, RetryInfo, BadRequest, QuotaFailure, Help,
// RequestInfo), the legacy form with errors[].reason, the array-wrapped
// form some APIs return, and the OAuth token endpoint's
// {"error":"invalid_grant"}.
//
// It reads a Google error body.
func googleTranslate(r *Raw) (classify.Outcome, bool) {
	e, oauthCode, ok := googleErrorOf(r)
	if !ok {
		return classify.Outcome{}, false
	}
	if oauthCode != "" {
		if r.Status < 400 {
			return classify.Outcome{}, false
		}
		return classify.Outcome{VendorCode: oauthCode, Message: e.str("error_description")}, true
	}
	code, _ := e.integer("code")
	message, status := e.str("message"), e.str("status")
	if r.Status < 400 && (code < 400 || message == "") {
		return classify.Outcome{}, false
	}
	d := readGoogleDetails(e)
	o := classify.Outcome{Message: message, Field: d.field, RequestID: d.requestID, Delay: d.delay, Violations: d.violations}
	if o.Message == "" {
		o.Message = d.localized
	}
	var legacyReason string
	if errs := e.items("errors"); len(errs) > 0 {
		first := readObject(errs[0])
		legacyReason = first.str("reason")
		if o.Message == "" {
			o.Message = first.str("message")
		}
		if o.Field == "" && first.str("locationType") == "parameter" {
			o.Field = first.str("location")
		}
	}
	switch {
	case d.reason != "":
		o.VendorCode = d.reason
	case legacyReason != "":
		o.VendorCode = legacyReason
	default:
		o.VendorCode = status
	}
	if googleRateCodes[o.VendorCode] && googlePerDayQuota(d) {
		o.VendorCode += googlePerDay
	}
	if googleUnknownOutcome[o.VendorCode] {
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	setDetail(&o, "doc_url", d.docURL)
	setDetail(&o, "domain", d.domain)
	for _, k := range [...]string{"quota_limit", "quota_metric", "quota_location", "service", "activationUrl"} {
		name := k
		if k == "activationUrl" {
			name = "activation_url"
		}
		setDetail(&o, name, d.metadata[k])
	}
	return o, true
}

// googleRateCodes are the codes that mean a rate limit unless the quota
// named is a per-day one.
var googleRateCodes = map[string]bool{
	"RATE_LIMIT_EXCEEDED": true, "RESOURCE_EXHAUSTED": true,
	"rateLimitExceeded": true, "userRateLimitExceeded": true,
}

// googleUnknownOutcome are the codes of a server-side failure after which
// the request may have run: retryable only when it is idempotent.
var googleUnknownOutcome = map[string]bool{
	"INTERNAL": true, "DEADLINE_EXCEEDED": true, "backendError": true, "internalError": true,
}

// googleStatusNames are the google.rpc.Code names, for recognition.
var googleStatusNames = map[string]bool{
	"CANCELLED": true, "UNKNOWN": true, "INVALID_ARGUMENT": true, "DEADLINE_EXCEEDED": true,
	"NOT_FOUND": true, "ALREADY_EXISTS": true, "PERMISSION_DENIED": true, "RESOURCE_EXHAUSTED": true,
	"FAILED_PRECONDITION": true, "ABORTED": true, "OUT_OF_RANGE": true, "UNIMPLEMENTED": true,
	"INTERNAL": true, "UNAVAILABLE": true, "DATA_LOSS": true, "UNAUTHENTICATED": true,
}

// googleCodes is the table behind Codes.
var googleCodes = func() map[string]string {
	t := map[string]string{
		// google.rpc.Code status names.
		"INVALID_ARGUMENT":    toolerr.CodeValidationFailed,
		"OUT_OF_RANGE":        toolerr.CodeValidationFailed,
		"FAILED_PRECONDITION": toolerr.CodePreconditionFailed,
		"UNAUTHENTICATED":     toolerr.CodeUnauthenticated,
		"PERMISSION_DENIED":   toolerr.CodePermissionDenied,
		"NOT_FOUND":           toolerr.CodeNotFound,
		"ALREADY_EXISTS":      toolerr.CodeConflict,
		"ABORTED":             toolerr.CodeConflict, // a concurrency conflict: re-read, then retry the whole operation
		"RESOURCE_EXHAUSTED":  toolerr.CodeRateLimited,
		"UNIMPLEMENTED":       toolerr.CodeNotImplemented,
		"UNAVAILABLE":         toolerr.CodeUpstreamUnavailable,
		"INTERNAL":            toolerr.CodeUpstreamUnavailable, // not retried unless idempotent (googleUnknownOutcome)
		"DEADLINE_EXCEEDED":   toolerr.CodeUpstreamTimeout,
		"CANCELLED":           toolerr.CodeCancelled,

		// ErrorInfo reasons (googleapis.com domain).
		"RATE_LIMIT_EXCEEDED":                 toolerr.CodeRateLimited,
		"RESOURCE_QUOTA_EXCEEDED":             toolerr.CodeQuotaExhausted,
		"SERVICE_DISABLED":                    toolerr.CodeUpstreamMisconfigured, // the project must enable the API: an operator's fix
		"BILLING_DISABLED":                    toolerr.CodePaymentRequired,
		"API_KEY_INVALID":                     toolerr.CodeUnauthenticated,
		"API_KEY_SERVICE_BLOCKED":             toolerr.CodePermissionDenied,
		"API_KEY_HTTP_REFERRER_BLOCKED":       toolerr.CodePermissionDenied,
		"API_KEY_IP_ADDRESS_BLOCKED":          toolerr.CodePermissionDenied,
		"API_KEY_ANDROID_APP_BLOCKED":         toolerr.CodePermissionDenied,
		"API_KEY_IOS_APP_BLOCKED":             toolerr.CodePermissionDenied,
		"ACCESS_TOKEN_EXPIRED":                toolerr.CodeUnauthenticated,
		"ACCESS_TOKEN_TYPE_UNSUPPORTED":       toolerr.CodeUnauthenticated,
		"CREDENTIALS_MISSING":                 toolerr.CodeUnauthenticated,
		"SESSION_COOKIE_INVALID":              toolerr.CodeUnauthenticated,
		"ACCESS_TOKEN_SCOPE_INSUFFICIENT":     toolerr.CodePermissionDenied,
		"IAM_PERMISSION_DENIED":               toolerr.CodePermissionDenied,
		"SERVICE_NOT_VISIBLE":                 toolerr.CodePermissionDenied,
		"USER_PROJECT_DENIED":                 toolerr.CodePermissionDenied,
		"CONSUMER_INVALID":                    toolerr.CodeUpstreamMisconfigured,
		"CONSUMER_SUSPENDED":                  toolerr.CodePolicyBlocked,
		"USER_BLOCKED_BY_ADMIN":               toolerr.CodePolicyBlocked,
		"ORG_RESTRICTION_VIOLATION":           toolerr.CodePolicyBlocked,
		"ORG_RESTRICTION_HEADER_INVALID":      toolerr.CodePolicyBlocked,
		"SECURITY_POLICY_VIOLATED":            toolerr.CodePolicyBlocked,
		"RESOURCE_USAGE_RESTRICTION_VIOLATED": toolerr.CodePolicyBlocked,
		"LOCATION_TAX_POLICY_VIOLATED":        toolerr.CodePolicyBlocked,

		// Legacy errors[].reason values.
		"rateLimitExceeded":         toolerr.CodeRateLimited,
		"userRateLimitExceeded":     toolerr.CodeRateLimited,
		"dailyLimitExceeded":        toolerr.CodeQuotaExhausted,
		"dailyLimitExceededUnreg":   toolerr.CodeQuotaExhausted,
		"quotaExceeded":             toolerr.CodeQuotaExhausted,
		"storageQuotaExceeded":      toolerr.CodeQuotaExhausted,
		"sharingRateLimitExceeded":  toolerr.CodeQuotaExhausted, // Drive: a per-user sharing cap, not seconds away
		"accessNotConfigured":       toolerr.CodeUpstreamMisconfigured,
		"keyInvalid":                toolerr.CodeUnauthenticated,
		"authError":                 toolerr.CodeUnauthenticated,
		"required":                  toolerr.CodeValidationFailed,
		"invalid":                   toolerr.CodeValidationFailed,
		"invalidParameter":          toolerr.CodeValidationFailed,
		"invalidQuery":              toolerr.CodeValidationFailed,
		"badRequest":                toolerr.CodeValidationFailed,
		"parseError":                toolerr.CodeValidationFailed,
		"notFound":                  toolerr.CodeNotFound,
		"forbidden":                 toolerr.CodePermissionDenied,
		"insufficientPermissions":   toolerr.CodePermissionDenied,
		"accessDenied":              toolerr.CodePermissionDenied,
		"appNotAuthorizedToFile":    toolerr.CodePermissionDenied,
		"domainPolicy":              toolerr.CodePolicyBlocked,
		"conflict":                  toolerr.CodeConflict,
		"duplicate":                 toolerr.CodeConflict,
		"conditionNotMet":           toolerr.CodePreconditionFailed,
		"billingNotEnabled":         toolerr.CodePaymentRequired,
		"responseTooLarge":          toolerr.CodePayloadTooLarge,
		"uploadTooLarge":            toolerr.CodePayloadTooLarge,
		"backendError":              toolerr.CodeUpstreamUnavailable,
		"internalError":             toolerr.CodeUpstreamUnavailable,
		"notImplemented":            toolerr.CodeNotImplemented,
		"timeout":                   toolerr.CodeUpstreamTimeout,
		"servingLimitExceeded":      toolerr.CodeRateLimited,
		"concurrentLimitExceeded":   toolerr.CodeRateLimited,
		"variableTermLimitExceeded": toolerr.CodeRateLimited,
	}
	// The OAuth body {"error":"invalid_token",…} of the token endpoint
	// (oauth2.googleapis.com) and of APIs rejecting a token: every
	// registered OAuth code, read as the oauth2 translator reads it.
	for c, code := range oauthCodes {
		if _, dup := t[c]; !dup {
			t[c] = code
		}
	}
	for c := range googleRateCodes {
		t[c+googlePerDay] = toolerr.CodeQuotaExhausted
	}
	return t
}()
