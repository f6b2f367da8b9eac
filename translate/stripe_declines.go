package translate

import (
	"maps"

	"github.com/toolerr/toolerr"
)

// stripeConcealed are the decline codes that Stripe's docs ("Decline
// codes", docs.stripe.com/declines/codes) say must not be shown to the
// customer, to be presented as a generic_decline instead: suspected fraud
// and cards reported lost or stolen. They reach the error's details as
// generic_decline, so that nothing an agent relays accuses the user.
var stripeConcealed = map[string]bool{
	"fraudulent":         true,
	"lost_card":          true,
	"stolen_card":        true,
	"pickup_card":        true,
	"merchant_blacklist": true,
	"restricted_card":    true,
	"security_violation": true,
}

// stripeDeclineCodes maps Stripe's decline codes (error.decline_code under
// card_declined), after Stripe's "Decline codes" table: its description
// and next steps decide each row. A decline code the table lacks leaves
// the class to error.code.
var stripeDeclineCodes = map[string]string{
	// "The payment should be attempted again": a passing refusal by the
	// issuer or the network, retryable.
	"try_again_later":      toolerr.CodeUpstreamUnavailable, // "ask the customer to attempt the payment again"
	"approve_with_id":      toolerr.CodeUpstreamUnavailable, // "the payment should be attempted again"
	"issuer_not_available": toolerr.CodeUpstreamUnavailable, // "the card issuer couldn't be reached"
	"processing_error":     toolerr.CodeUpstreamUnavailable, // "an error occurred while processing the card"
	"reenter_transaction":  toolerr.CodeUpstreamUnavailable, // "couldn't be processed by the issuer for an unknown reason"

	// Suspected fraud, cards reported lost or stolen, merchant blocks: a
	// policy refusal, never retried, never blamed on the user (see
	// stripeConcealed).
	"fraudulent":         toolerr.CodePolicyBlocked,
	"lost_card":          toolerr.CodePolicyBlocked,
	"stolen_card":        toolerr.CodePolicyBlocked,
	"pickup_card":        toolerr.CodePolicyBlocked,
	"merchant_blacklist": toolerr.CodePolicyBlocked,
	"restricted_card":    toolerr.CodePolicyBlocked,
	"security_violation": toolerr.CodePolicyBlocked,

	// Declines the customer must resolve with another card or the issuer.
	"insufficient_funds":                toolerr.CodePaymentRequired,
	"expired_card":                      toolerr.CodePaymentRequired,
	"card_velocity_exceeded":            toolerr.CodePaymentRequired, // balance or credit limit exceeded
	"withdrawal_count_limit_exceeded":   toolerr.CodePaymentRequired,
	"card_not_supported":                toolerr.CodePaymentRequired,
	"generic_decline":                   toolerr.CodePaymentRequired,
	"do_not_honor":                      toolerr.CodePaymentRequired,
	"do_not_try_again":                  toolerr.CodePaymentRequired,
	"call_issuer":                       toolerr.CodePaymentRequired,
	"no_action_taken":                   toolerr.CodePaymentRequired,
	"not_permitted":                     toolerr.CodePaymentRequired,
	"transaction_not_allowed":           toolerr.CodePaymentRequired,
	"service_not_allowed":               toolerr.CodePaymentRequired,
	"invalid_account":                   toolerr.CodePaymentRequired,
	"new_account_information_available": toolerr.CodePaymentRequired,
	"revocation_of_authorization":       toolerr.CodePaymentRequired,
	"revocation_of_all_authorizations":  toolerr.CodePaymentRequired,
	"stop_payment_order":                toolerr.CodePaymentRequired,
	"authentication_required":           toolerr.CodePaymentRequired,
	"offline_pin_required":              toolerr.CodePaymentRequired,
	"online_or_offline_pin_required":    toolerr.CodePaymentRequired,
	"pin_try_exceeded":                  toolerr.CodePaymentRequired,

	// Card data the user can correct: ask them.
	"incorrect_cvc":        toolerr.CodeValidationFailed,
	"invalid_cvc":          toolerr.CodeValidationFailed,
	"incorrect_number":     toolerr.CodeValidationFailed,
	"invalid_number":       toolerr.CodeValidationFailed,
	"incorrect_zip":        toolerr.CodeValidationFailed,
	"incorrect_pin":        toolerr.CodeValidationFailed,
	"invalid_pin":          toolerr.CodeValidationFailed,
	"invalid_expiry_month": toolerr.CodeValidationFailed,
	"invalid_expiry_year":  toolerr.CodeValidationFailed,
	"invalid_amount":       toolerr.CodeValidationFailed,
	"testmode_decline":     toolerr.CodeValidationFailed, // a test card number used in live mode
	"live_mode_test_card":  toolerr.CodeValidationFailed,

	// "A transaction with identical amount and credit card information was
	// submitted very recently."
	"duplicate_transaction": toolerr.CodeDuplicateAction,
}

// stripeTable is Stripe's table as the Set registers it: the error codes
// and types, and the decline codes. The two share a key space; where a
// decline code is also an error code (expired_card, processing_error,
// incorrect_cvc, currency_not_supported…), the error code's row wins, and
// every such pair agrees but currency_not_supported (kept a validation
// failure: another currency may pass).
var stripeTable = func() map[string]string {
	t := maps.Clone(stripeDeclineCodes)
	maps.Copy(t, stripeCodes)
	return t
}()
