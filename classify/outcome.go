package classify

import (
	"net/http"
	"time"

	"github.com/toolerr/toolerr"
)

// Outcome is what happened on one downstream call, as far as a translator or
// the caller could tell. Every field is optional; the zero Outcome classifies
// as UPSTREAM_UNCLASSIFIED.
type Outcome struct {
	// Method is the request method; it decides whether an unknown outcome
	// (a timeout) may be retried. Empty means GET.
	Method string
	// Idempotent is true when the request carried an idempotency key, so any
	// method may be retried.
	Idempotent bool
	// Status is the downstream HTTP status, 0 when no response arrived.
	Status int
	// Header holds the downstream response headers, if any.
	Header http.Header
	// Vendor names the downstream service ("stripe"); it scopes VendorCode.
	Vendor string
	// VendorCode is the vendor's own error code, as the translator read it.
	VendorCode string
	// ClassCode is a finer vendor code beneath VendorCode, such as
	// Stripe's decline_code under card_declined. When the vendor's table
	// maps it, it decides the class in place of VendorCode; VendorCode
	// stays the upstream code the error reports. Empty: VendorCode alone.
	ClassCode string
	// GenericCode is true when VendorCode is a catch-all that the vendor
	// sends with many statuses (Stripe's bare invalid_request_error): it
	// is reported as the upstream code, but it is not looked up, the
	// evidence and the status decide, and it does not count as unmapped.
	GenericCode bool
	// Message is the vendor's error message. It is untrusted text: it reaches
	// Error.Detail only through the classifier's message filter.
	Message string
	// Field is the vendor's reference to the offending input.
	Field string
	// RequestID is the vendor's request id.
	RequestID string
	// Delay is a delay the translator read from the body (Google RetryInfo,
	// Shopify throttle maths); it wins over delay headers.
	Delay time.Duration
	// Evidence is what the translator decided from vendor specifics.
	Evidence Evidence
	// Details are structured vendor facts for the agent's next call (a
	// decline code, the vendor's documentation link, a quota name). String
	// values are untrusted text: they reach Error.Details only through the
	// classifier's message filter, and not at all without one. Other values
	// must be JSON-encodable numbers or booleans.
	Details map[string]any
	// Violations are the vendor's per-field violations (a gRPC
	// BadRequest's field violations, Google's fieldViolations), each Field
	// a JSON pointer ([FieldPointer] converts a vendor's path). They are
	// untrusted: a Reason reaches Error.Violations only through the
	// classifier's message filter (without one it is a fixed "is
	// invalid"), a Field through the filter or as a plain token, values
	// not at all; at most toolerr.MaxViolations are kept.
	Violations []toolerr.Violation
	// Err is the Go error of the call, when it failed before a response.
	Err error
	// UnknownOutcome is true when the call may have taken effect
	// downstream although it failed (a gRPC UNAVAILABLE or
	// DEADLINE_EXCEEDED): a retryable result is then retryable only for an
	// idempotent call, as for a timeout.
	UnknownOutcome bool
	// Local is true when the service itself produced the failure (its
	// handler, router or a server middleware) and nothing shows a
	// downstream behind it. The status then keeps the meaning the
	// application gave it, read by the local rows of the status table
	// (see [LocalCode]); no UPSTREAM_* code and no upstream member
	// results. The zero value, a downstream's outcome, is what
	// translators and outbound calls produce.
	Local bool
}

// Evidence is a fact about a response that decides its classification
// whatever its status.
type Evidence struct {
	// RateLimited: the response is a rate limit (GitHub's 403 secondary limit).
	RateLimited bool
	// Challenge: the response is a bot or WAF challenge, a policy block.
	Challenge bool
	// Retry is the vendor's explicit retry advice.
	Retry RetryAdvice
}

// RetryAdvice is a vendor's explicit word on whether to retry.
type RetryAdvice int

const (
	// AdviceNone: the vendor said nothing.
	AdviceNone RetryAdvice = iota
	// AdviceRetry: the vendor says the same request may succeed if retried.
	AdviceRetry
	// AdviceDoNotRetry: the vendor says a retry will fail the same way.
	AdviceDoNotRetry
)
