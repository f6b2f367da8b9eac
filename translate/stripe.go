package translate

import (
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// stripeRecognizes claims a response with a Stripe request id (Request-Id:
// req_…) that either carries Stripe's own headers or Stripe's error body:
// a top-level "error" object and no top-level "type" (Anthropic, whose
// request ids also start with req_, has one). Without Stripe's headers (a
// response relayed by a handler) it claims Stripe's body shape alone, when
// unambiguous (see stripeBodyShape).
func stripeRecognizes(r *Raw) bool {
	if !strings.HasPrefix(canonheader.Value(r.Header, "Request-Id"), "req_") {
		return stripeBodyShape(r)
	}
	if canonheader.Value(r.Header, "Stripe-Version") != "" || canonheader.Value(r.Header, "Stripe-Should-Retry") != "" {
		return true
	}
	m := r.object()
	if m == nil {
		return false
	}
	hasType := m.has("type")
	isObject := r.errorObject() != nil
	return isObject && !hasType
}

// stripeOwnTypes are the error.type values only Stripe writes
// (https://docs.stripe.com/api/errors lists the types).
var stripeOwnTypes = map[string]bool{"card_error": true, "idempotency_error": true}

// stripeSharedTypes are Stripe's other error types, which OpenAI-style APIs
// (invalid_request_error) or Anthropic (api_error) write too.
var stripeSharedTypes = map[string]bool{
	"api_error": true, "invalid_request_error": true,
	"rate_limit_error": true, "authentication_error": true, "api_connection_error": true,
}

// stripeBodyShape reports whether r's body is Stripe's error object, with
// no other top-level member, and either a type only Stripe writes
// (card_error, idempotency_error) or another Stripe type together with a
// member only Stripe writes: a doc_url into Stripe's documentation, a
// request_log_url into its dashboard, or a decline_code. An OpenAI-style
// {"error":{"type":"invalid_request_error",…}} is not claimed.
func stripeBodyShape(r *Raw) bool {
	m := r.object()
	if len(m) != 1 {
		return false
	}
	e := r.errorObject()
	if e == nil {
		return false
	}
	typ := e.str("type")
	if stripeOwnTypes[typ] {
		return true
	}
	if !stripeSharedTypes[typ] {
		return false
	}
	doc, log := e.str("doc_url"), e.str("request_log_url")
	return strings.HasPrefix(doc, "https://stripe.com/docs/") || strings.HasPrefix(doc, "https://docs.stripe.com/") ||
		strings.HasPrefix(log, "https://dashboard.stripe.com/") || e.str("decline_code") != ""
}

// stripeTranslate reads Stripe API errors:
//
//	{"error": {"type": "card_error", "code": "card_declined",
//	  "decline_code": "insufficient_funds", "param": "source",
//	  "message": "…", "doc_url": "https://stripe.com/docs/error-codes/…"}}
//
// with the request id in the Request-Id header ("req_…"). The vendor code
// is error.code, else error.type. A bare invalid_request_error (a bad API
// key on a 401, an unknown URL on a 404) is a generic code: reported, but
// the status decides. A decline_code decides the class of a decline when
// Stripe's decline table maps it (a retryable try_again_later, a
// fraudulent decline), while error.code stays the upstream code.
// Stripe-Should-Retry is read by the classifier.
//
// It reads a Stripe error body. Stripe sends errors only with 4xx
// and 5xx statuses, so a 2xx is never one.
func stripeTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	e, typ, o, ok := typedError(r)
	if !ok {
		return classify.Outcome{}, false
	}
	o.RequestID = canonheader.Value(r.Header, "Request-Id")
	if o.VendorCode == "" && typ == "invalid_request_error" {
		o.VendorCode, o.GenericCode = typ, true
	}
	decline := e.str("decline_code")
	o.ClassCode = decline
	if stripeConcealed[decline] {
		decline = "generic_decline"
	}
	setDetail(&o, "doc_url", e.str("doc_url"))
	setDetail(&o, "decline_code", decline)
	setDetail(&o, "advice_code", e.str("advice_code"))
	setDetail(&o, "network_decline_code", e.str("network_decline_code"))
	// An api_error is a failure inside Stripe whose outcome Stripe calls
	// indeterminate: without Stripe's word (Stripe-Should-Retry, read by
	// the classifier) a call that is neither idempotent nor keyed may have
	// run, so it must not be repeated blindly.
	if typ == "api_error" && canonheader.Value(r.Header, "Stripe-Should-Retry") == "" &&
		!r.Idempotent && !idempotentMethod(r.Method) {
		o.Evidence.Retry = classify.AdviceDoNotRetry
	}
	return o, true
}

// stripeCodes is Stripe's table. Card problems the customer alone can
// solve (a decline, an expired card, 3-D Secure) are PAYMENT_REQUIRED: the
// agent cannot fix them. Mistyped card data is VALIDATION_FAILED (ask the
// user), with the param as the field.
var stripeCodes = map[string]string{
	// Types without a code.
	"api_error":         toolerr.CodeUpstreamUnavailable,
	"card_error":        toolerr.CodePaymentRequired,
	"idempotency_error": toolerr.CodeIdempotencyKeyReused,

	// Cards.
	"card_declined":                    toolerr.CodePaymentRequired,
	"expired_card":                     toolerr.CodePaymentRequired,
	"insufficient_funds":               toolerr.CodePaymentRequired,
	"authentication_required":          toolerr.CodePaymentRequired,
	"card_decline_rate_limit_exceeded": toolerr.CodePaymentRequired,
	"incorrect_cvc":                    toolerr.CodeValidationFailed,
	"invalid_cvc":                      toolerr.CodeValidationFailed,
	"incorrect_number":                 toolerr.CodeValidationFailed,
	"invalid_number":                   toolerr.CodeValidationFailed,
	"invalid_expiry_month":             toolerr.CodeValidationFailed,
	"invalid_expiry_year":              toolerr.CodeValidationFailed,
	"incorrect_zip":                    toolerr.CodeValidationFailed,
	"postal_code_invalid":              toolerr.CodeValidationFailed,
	"processing_error":                 toolerr.CodeUpstreamUnavailable,

	// Parameters.
	"parameter_missing":              toolerr.CodeValidationFailed,
	"parameter_unknown":              toolerr.CodeValidationFailed,
	"parameter_invalid_empty":        toolerr.CodeValidationFailed,
	"parameter_invalid_integer":      toolerr.CodeValidationFailed,
	"parameter_invalid_string_blank": toolerr.CodeValidationFailed,
	"parameter_invalid_string_empty": toolerr.CodeValidationFailed,
	"parameters_exclusive":           toolerr.CodeValidationFailed,
	"amount_too_small":               toolerr.CodeValidationFailed,
	"amount_too_large":               toolerr.CodeValidationFailed,
	"invalid_charge_amount":          toolerr.CodeValidationFailed,
	"invalid_characters":             toolerr.CodeValidationFailed,
	"email_invalid":                  toolerr.CodeValidationFailed,
	"url_invalid":                    toolerr.CodeValidationFailed,
	"currency_not_supported":         toolerr.CodeValidationFailed,

	// Resources and their state.
	"resource_missing":                toolerr.CodeNotFound,
	"resource_already_exists":         toolerr.CodeConflict,
	"charge_already_captured":         toolerr.CodeConflict,
	"charge_already_refunded":         toolerr.CodeConflict,
	"charge_disputed":                 toolerr.CodeConflict,
	"charge_expired_for_capture":      toolerr.CodePreconditionFailed,
	"payment_intent_unexpected_state": toolerr.CodePreconditionFailed,
	"setup_intent_unexpected_state":   toolerr.CodePreconditionFailed,
	"invoice_not_editable":            toolerr.CodePreconditionFailed,
	"balance_insufficient":            toolerr.CodePaymentRequired,

	// Keys and accounts.
	"api_key_expired":          toolerr.CodeUnauthenticated,
	"platform_api_key_expired": toolerr.CodeUnauthenticated,
	"secret_key_required":      toolerr.CodeUnauthenticated,
	"account_invalid":          toolerr.CodePermissionDenied,
	"testmode_charges_only":    toolerr.CodePolicyBlocked,

	// Concurrency and load.
	"idempotency_key_in_use": toolerr.CodeIdempotencyInProgress,
	"rate_limit":             toolerr.CodeRateLimited,
	"lock_timeout":           toolerr.CodeRateLimited,
}
