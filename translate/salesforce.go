package translate

import (
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// salesforceConcurrent qualifies REQUEST_LIMIT_EXCEEDED for a concurrency
// limit.
const salesforceConcurrent = "/Concurrent"

// salesforceRecognizes reports whether a response of unknown host is a
// Salesforce error: an array whose first item has a SCREAMING_SNAKE
// errorCode and a message.
func salesforceRecognizes(r *Raw) bool {
	if r.Status < 400 || r.bodyStart() != '[' {
		return false
	}
	items := readArray(r.Body)
	if len(items) == 0 {
		return false
	}
	first := readObject(items[0])
	return isScreamingName(first.str("errorCode")) && first.str("message") != ""
}

// salesforceTranslate reads Salesforce REST errors: an array of
// {"message","errorCode","fields":[…]} (a single such object from some
// endpoints), and the OAuth endpoint's {"error","error_description"}.
//
// REQUEST_LIMIT_EXCEEDED names two different limits: the org's rolling
// 24-hour API request allowance ("TotalRequests Limit exceeded"), which
// waiting seconds does not restore, and the concurrent long-running request
// limit ("ConcurrentPerOrgLongTxn Limit exceeded"), which clears as running
// requests finish. The translator qualifies the code of the second as
// REQUEST_LIMIT_EXCEEDED/Concurrent so the table can tell them apart.
//
// It reads a Salesforce error body. Salesforce sends its error
// shapes only with a failure status.
func salesforceTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	var first jsonObject
	switch r.bodyStart() {
	case '[':
		items := readArray(r.Body)
		if len(items) == 0 {
			return classify.Outcome{}, false
		}
		first = readObject(items[0])
	case '{':
		first = r.object()
		if code := first.str("error"); code != "" {
			return classify.Outcome{VendorCode: code, Message: first.str("error_description")}, true
		}
	}
	code := first.str("errorCode")
	if code == "" {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{VendorCode: code, Message: first.str("message")}
	if fields := first.strs("fields"); len(fields) > 0 {
		o.Field = fields[0]
	}
	if code == "REQUEST_LIMIT_EXCEEDED" {
		limit := salesforceLimitName(o.Message)
		if strings.HasPrefix(limit, "Concurrent") {
			o.VendorCode += salesforceConcurrent
		}
		setDetail(&o, "limit", limit)
	}
	if code == "REQUEST_RUNNING_TOO_LONG" {
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	setDetail(&o, "api_usage", salesforceAPIUsage(canonheader.Value(r.Header, "Sforce-Limit-Info")))
	return o, true
}

// salesforceLimitName returns the limit a REQUEST_LIMIT_EXCEEDED message
// names ("TotalRequests" in "TotalRequests Limit exceeded."), or "".
func salesforceLimitName(message string) string {
	name, _, found := strings.Cut(message, " Limit exceeded")
	if !found || name == "" || len(name) > 64 || strings.ContainsAny(name, " \t:") {
		return ""
	}
	return name
}

// salesforceAPIUsage returns the api-usage value of a Sforce-Limit-Info
// header ("api-usage=14999/15000"), or "".
func salesforceAPIUsage(h string) string {
	for part := range strings.SplitSeq(h, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "api-usage="); ok && len(v) <= 32 {
			return v
		}
	}
	return ""
}

// salesforceCodes is the table behind Codes.
var salesforceCodes = map[string]string{
	"REQUIRED_FIELD_MISSING":                        toolerr.CodeValidationFailed,
	"FIELD_CUSTOM_VALIDATION_EXCEPTION":             toolerr.CodeValidationFailed,
	"FIELD_INTEGRITY_EXCEPTION":                     toolerr.CodeValidationFailed,
	"INVALID_FIELD":                                 toolerr.CodeValidationFailed,
	"INVALID_FIELD_FOR_INSERT_UPDATE":               toolerr.CodeValidationFailed,
	"INVALID_TYPE":                                  toolerr.CodeValidationFailed,
	"INVALID_TYPE_ON_FIELD_IN_RECORD":               toolerr.CodeValidationFailed,
	"INVALID_ID_FIELD":                              toolerr.CodeValidationFailed,
	"INVALID_CROSS_REFERENCE_KEY":                   toolerr.CodeValidationFailed,
	"INVALID_EMAIL_ADDRESS":                         toolerr.CodeValidationFailed,
	"INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST":       toolerr.CodeValidationFailed,
	"INVALID_QUERY_FILTER_OPERATOR":                 toolerr.CodeValidationFailed,
	"MALFORMED_ID":                                  toolerr.CodeValidationFailed,
	"MALFORMED_QUERY":                               toolerr.CodeValidationFailed,
	"JSON_PARSER_ERROR":                             toolerr.CodeValidationFailed,
	"STRING_TOO_LONG":                               toolerr.CodeValidationFailed,
	"NUMBER_OUTSIDE_VALID_RANGE":                    toolerr.CodeValidationFailed,
	"METHOD_NOT_ALLOWED":                            toolerr.CodeValidationFailed,
	"INVALID_SESSION_ID":                            toolerr.CodeUnauthenticated,
	"INVALID_AUTH_HEADER":                           toolerr.CodeUnauthenticated,
	"NOT_FOUND":                                     toolerr.CodeNotFound,
	"INSUFFICIENT_ACCESS":                           toolerr.CodePermissionDenied,
	"INSUFFICIENT_ACCESS_OR_READONLY":               toolerr.CodePermissionDenied,
	"INSUFFICIENT_ACCESS_ON_CROSS_REFERENCE_ENTITY": toolerr.CodePermissionDenied,
	"API_DISABLED_FOR_ORG":                          toolerr.CodePermissionDenied,
	"API_CURRENTLY_DISABLED":                        toolerr.CodePermissionDenied,
	"FUNCTIONALITY_NOT_ENABLED":                     toolerr.CodePermissionDenied,
	"ENTITY_IS_DELETED":                             toolerr.CodeGone,
	"DUPLICATE_VALUE":                               toolerr.CodeConflict,
	"DUPLICATES_DETECTED":                           toolerr.CodeConflict,
	"ENTITY_IS_LOCKED":                              toolerr.CodePreconditionFailed,
	"UNABLE_TO_LOCK_ROW":                            toolerr.CodeUpstreamUnavailable, // a record lock held by another transaction: passes
	"REQUEST_LIMIT_EXCEEDED":                        toolerr.CodeQuotaExhausted,      // the org's 24-hour API allowance
	"REQUEST_LIMIT_EXCEEDED" + salesforceConcurrent: toolerr.CodeRateLimited,
	"STORAGE_LIMIT_EXCEEDED":                        toolerr.CodeQuotaExhausted,
	"SERVER_UNAVAILABLE":                            toolerr.CodeUpstreamUnavailable,
	"REQUEST_RUNNING_TOO_LONG":                      toolerr.CodeUpstreamTimeout,
	"QUERY_TIMEOUT":                                 toolerr.CodeUpstreamTimeout,

	// OAuth endpoint errors.
	"invalid_grant":       toolerr.CodeUnauthenticated,
	"invalid_client":      toolerr.CodeUnauthenticated,
	"invalid_client_id":   toolerr.CodeUnauthenticated,
	"invalid_request":     toolerr.CodeValidationFailed,
	"inactive_user":       toolerr.CodePermissionDenied,
	"inactive_org":        toolerr.CodePermissionDenied,
	"rate_limit_exceeded": toolerr.CodeRateLimited,
}
