package translate

import (
	"encoding/json"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// payPalRecognizes reports whether a response of unknown host is a PayPal
// error: the Paypal-Debug-Id header, or a body with a SCREAMING_SNAKE name,
// a message and a debug_id.
func payPalRecognizes(r *Raw) bool {
	if r.Status < 400 || r.bodyStart() != '{' {
		return false
	}
	m := r.object()
	if m == nil {
		return false
	}
	if canonheader.Value(r.Header, "Paypal-Debug-Id") != "" {
		return m.str("name") != "" || m.str("error") != ""
	}
	return isScreamingName(m.str("name")) && m.str("message") != "" && m.str("debug_id") != ""
}

// payPalTranslate reads PayPal REST errors:
// {"name","message","debug_id","details":[{"field","value","location",
// "issue","description"}],"links":[{"href","rel"}]} (older APIs put the
// documentation in "information_link"), and the OAuth endpoint's
// {"error","error_description"}. The vendor code is details[0].issue, the
// fine-grained code, else name.
//
// It reads a PayPal error body. PayPal sends its error shapes only
// with a failure status.
func payPalTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || r.bodyStart() != '{' {
		return classify.Outcome{}, false
	}
	m := r.object()
	if m == nil {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: m.str("debug_id")}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "Paypal-Debug-Id")
	}
	if code := m.str("error"); code != "" {
		o.VendorCode, o.Message = code, m.str("error_description")
		return o, true
	}
	name := m.str("name")
	if name == "" {
		return classify.Outcome{}, false
	}
	o.VendorCode, o.Message = name, m.str("message")
	if details := m.items("details"); len(details) > 0 {
		d := readObject(details[0])
		// v1 APIs write a sentence in issue ("Value is invalid."): a
		// message, not a code.
		issue := d.str("issue")
		if isScreamingName(issue) {
			o.VendorCode = issue
		}
		o.Field = d.str("field")
		switch desc := d.str("description"); {
		case desc != "":
			o.Message = desc
		case issue != "" && issue != o.VendorCode:
			o.Message = issue
		}
		setDetail(&o, "location", d.str("location"))
	}
	if payPalUnknownOutcome[o.VendorCode] {
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	setDetail(&o, "doc_url", payPalLink(m.get("links"), "information_link"))
	if o.Details["doc_url"] == nil {
		setDetail(&o, "doc_url", m.str("information_link"))
	}
	setDetail(&o, "payer_action_url", payPalLink(m.get("links"), "payer-action"))
	if name != o.VendorCode {
		setDetail(&o, "name", name)
	}
	return o, true
}

// payPalLink returns the href of the first link with relation rel.
func payPalLink(raw json.RawMessage, rel string) string {
	for _, item := range readArray(raw) {
		l := readObject(item)
		if l.str("rel") == rel {
			return l.str("href")
		}
	}
	return ""
}

// payPalUnknownOutcome are the codes of a server failure after which the
// request may have run: retryable only when it is idempotent.
var payPalUnknownOutcome = map[string]bool{"INTERNAL_SERVER_ERROR": true, "INTERNAL_SERVICE_ERROR": true}

// payPalCodes is the table behind Codes.
var payPalCodes = map[string]string{
	// Error names.
	"INVALID_REQUEST":           toolerr.CodeValidationFailed,
	"VALIDATION_ERROR":          toolerr.CodeValidationFailed,
	"UNPROCESSABLE_ENTITY":      toolerr.CodeValidationFailed,
	"MALFORMED_REQUEST":         toolerr.CodeValidationFailed,
	"METHOD_NOT_SUPPORTED":      toolerr.CodeValidationFailed,
	"MEDIA_TYPE_NOT_ACCEPTABLE": toolerr.CodeValidationFailed,
	"UNSUPPORTED_MEDIA_TYPE":    toolerr.CodeValidationFailed,
	"AUTHENTICATION_FAILURE":    toolerr.CodeUnauthenticated,
	"NOT_AUTHORIZED":            toolerr.CodePermissionDenied,
	"PERMISSION_DENIED":         toolerr.CodePermissionDenied,
	"RESOURCE_NOT_FOUND":        toolerr.CodeNotFound,
	"RATE_LIMIT_REACHED":        toolerr.CodeRateLimited,
	"INTERNAL_SERVER_ERROR":     toolerr.CodeUpstreamUnavailable, // not retried unless idempotent
	"INTERNAL_SERVICE_ERROR":    toolerr.CodeUpstreamUnavailable,
	"SERVICE_UNAVAILABLE":       toolerr.CodeUpstreamUnavailable,

	// details[].issue values.
	"DECIMAL_PRECISION":                     toolerr.CodeValidationFailed,
	"INVALID_PARAMETER_VALUE":               toolerr.CodeValidationFailed,
	"INVALID_PARAMETER_SYNTAX":              toolerr.CodeValidationFailed,
	"INVALID_STRING_LENGTH":                 toolerr.CodeValidationFailed,
	"INVALID_STRING_MAX_LENGTH":             toolerr.CodeValidationFailed,
	"MISSING_REQUIRED_PARAMETER":            toolerr.CodeValidationFailed,
	"INVALID_CURRENCY_CODE":                 toolerr.CodeValidationFailed,
	"CURRENCY_NOT_SUPPORTED":                toolerr.CodeValidationFailed,
	"AMOUNT_MISMATCH":                       toolerr.CodeValidationFailed,
	"ITEM_TOTAL_MISMATCH":                   toolerr.CodeValidationFailed,
	"MALFORMED_REQUEST_JSON":                toolerr.CodeValidationFailed,
	"REFUND_AMOUNT_EXCEEDED":                toolerr.CodeValidationFailed,
	"INVALID_RESOURCE_ID":                   toolerr.CodeNotFound,
	"ORDER_NOT_APPROVED":                    toolerr.CodePreconditionFailed,
	"ORDER_ALREADY_CAPTURED":                toolerr.CodeConflict,
	"ORDER_ALREADY_AUTHORIZED":              toolerr.CodeConflict,
	"DUPLICATE_INVOICE_ID":                  toolerr.CodeConflict,
	"CAPTURE_FULLY_REFUNDED":                toolerr.CodeConflict,
	"INSTRUMENT_DECLINED":                   toolerr.CodePaymentRequired, // the payer's funding source was declined
	"PAYER_ACTION_REQUIRED":                 toolerr.CodePaymentRequired, // the payer must act (approve, authenticate)
	"CARD_EXPIRED":                          toolerr.CodePaymentRequired,
	"TRANSACTION_REFUSED":                   toolerr.CodePaymentRequired,
	"PAYER_CANNOT_PAY":                      toolerr.CodePaymentRequired,
	"COMPLIANCE_VIOLATION":                  toolerr.CodePolicyBlocked,
	"PAYEE_ACCOUNT_RESTRICTED":              toolerr.CodePolicyBlocked,
	"PAYEE_ACCOUNT_LOCKED_OR_CLOSED":        toolerr.CodePolicyBlocked,
	"PAYER_ACCOUNT_RESTRICTED":              toolerr.CodePolicyBlocked,
	"PAYEE_NOT_ENABLED_FOR_CARD_PROCESSING": toolerr.CodeUpstreamMisconfigured,

	// OAuth endpoint errors.
	"invalid_client":  toolerr.CodeUnauthenticated,
	"invalid_token":   toolerr.CodeUnauthenticated,
	"invalid_grant":   toolerr.CodeUnauthenticated,
	"invalid_request": toolerr.CodeValidationFailed,
}
