package classify

import (
	"net/http"

	"github.com/toolerr/toolerr"
)

// statusRule is one row of the status table.
type statusRule struct {
	code string
	// unknownOutcome: the request may have been processed before the failure
	// (a gateway timeout), so it is retryable only when the call was idempotent.
	unknownOutcome bool
}

// StatusCode returns the code the status table gives an HTTP status, or ""
// for a status below 400. Statuses no row names fall back per class: an
// unknown 4xx or 5xx is UPSTREAM_UNCLASSIFIED.
func StatusCode(status int) string {
	return statusRow(status).code
}

// statusRow is the status table: every status from 400 to 599 that real
// services send, each row deliberate. Rows that depart from the obvious
// reading of RFC 9110 say why.
func statusRow(status int) statusRule {
	switch status {
	// 4xx: the request, as sent, cannot succeed.
	case http.StatusBadRequest, // 400
		http.StatusUnprocessableEntity, // 422
		// 405, 406, 411, 415, 416 and 417 describe how the request was made,
		// not a passing state: fixing the call is the only way forward.
		http.StatusMethodNotAllowed,             // 405
		http.StatusNotAcceptable,                // 406
		http.StatusLengthRequired,               // 411
		http.StatusUnsupportedMediaType,         // 415
		http.StatusRequestedRangeNotSatisfiable, // 416
		http.StatusExpectationFailed,            // 417
		http.StatusUpgradeRequired,              // 426: protocol upgrade needed; retrying unchanged fails
		449,                                     // IIS Retry With: the request lacks required information
		463,                                     // AWS ELB: X-Forwarded-For with more than 30 addresses
		497:                                     // nginx: plain HTTP sent to an HTTPS port
		return statusRule{code: toolerr.CodeValidationFailed}
	case http.StatusUnauthorized, // 401
		419, // Laravel: session or CSRF token expired; fresh credentials fix it
		440, // IIS: login time-out
		495, // nginx: client certificate error
		496, // nginx: client certificate required
		498: // Esri: invalid or expired token
		return statusRule{code: toolerr.CodeUnauthenticated}
	case http.StatusPaymentRequired: // 402
		return statusRule{code: toolerr.CodePaymentRequired}
	case http.StatusForbidden: // 403: rate-limit 403s are caught earlier by header evidence
		return statusRule{code: toolerr.CodePermissionDenied}
	case http.StatusNotFound: // 404
		return statusRule{code: toolerr.CodeNotFound}
	case http.StatusGone: // 410
		return statusRule{code: toolerr.CodeGone}
	case http.StatusRequestTimeout: // 408
		// The server gave up waiting for the rest of the request, so nothing
		// ran: unlike a gateway timeout, any method may be retried.
		return statusRule{code: toolerr.CodeUpstreamTimeout}
	case http.StatusConflict, // 409
		http.StatusLocked: // 423: held by another writer; reconcile, like a conflict
		return statusRule{code: toolerr.CodeConflict}
	case http.StatusPreconditionFailed, // 412
		http.StatusPreconditionRequired, // 428: resend with the current version (If-Match)
		http.StatusFailedDependency:     // 424: an earlier action this one needs failed; re-read state
		return statusRule{code: toolerr.CodePreconditionFailed}
	case http.StatusRequestEntityTooLarge, // 413
		http.StatusRequestURITooLong,           // 414
		http.StatusRequestHeaderFieldsTooLarge, // 431
		494:                                    // nginx: request header too large
		return statusRule{code: toolerr.CodePayloadTooLarge}
	case http.StatusTeapot, // 418
		427: // unassigned by IANA; no service gives it a meaning
		// No defined meaning (some bot filters answer 418). Surface them as
		// unclassified so the counter shows them rather than guess a cause.
		return statusRule{code: toolerr.CodeUpstreamUnclassified}
	case http.StatusMisdirectedRequest, // 421: resend on another connection
		http.StatusTooEarly: // 425: replay risk until the TLS handshake completes; a later retry is safe
		return statusRule{code: toolerr.CodeUpstreamUnavailable}
	case http.StatusTooManyRequests, // 429
		420: // Twitter's old "Enhance your calm" rate limit
		return statusRule{code: toolerr.CodeRateLimited}
	case http.StatusUnavailableForLegalReasons, // 451
		430, // Shopify: request blocked by its security rules
		450: // Windows parental controls
		return statusRule{code: toolerr.CodePolicyBlocked}
	case toolerr.StatusClientClosedRequest, // 499 (nginx)
		460: // AWS ELB: the client closed the connection before the idle timeout
		return statusRule{code: toolerr.CodeCancelled}

	// 5xx: the server failed.
	case http.StatusInternalServerError: // 500
		// A bare 500 explains nothing: retrying may repeat a side effect, so
		// it is unclassified (not retryable) unless a vendor code says more,
		// or the vendor's SDKs retry it and the call may be repeated
		// (sdkretry.go; StatusCode does not know the vendor).
		return statusRule{code: toolerr.CodeUpstreamUnclassified}
	case http.StatusNotImplemented: // 501
		return statusRule{code: toolerr.CodeNotImplemented}
	case http.StatusBadGateway, // 502: the gateway got no usable answer; the origin did not answer
		http.StatusServiceUnavailable, // 503
		520,                           // Cloudflare: the origin returned an empty or unknown response
		521,                           // Cloudflare: the origin refused the connection
		523,                           // Cloudflare: the origin is unreachable
		527,                           // Cloudflare Railgun: connection to the origin interrupted
		529:                           // overloaded (Anthropic, Qualys): back off and retry
		return statusRule{code: toolerr.CodeUpstreamUnavailable}
	case http.StatusGatewayTimeout, // 504
		522, // Cloudflare: connection to the origin timed out
		524, // Cloudflare: the origin accepted the request and did not answer in time
		598, // proxies: network read timeout
		599: // proxies: network connect timeout
		return statusRule{code: toolerr.CodeUpstreamTimeout, unknownOutcome: true}
	case http.StatusProxyAuthRequired, // 407: the tool's own egress proxy wants credentials; not the caller's to fix
		http.StatusHTTPVersionNotSupported,       // 505
		http.StatusVariantAlsoNegotiates,         // 506
		http.StatusLoopDetected,                  // 508
		http.StatusNotExtended,                   // 510
		http.StatusNetworkAuthenticationRequired, // 511: a captive network sits in front of the downstream
		525,                                      // Cloudflare: TLS handshake with the origin failed
		526,                                      // Cloudflare: the origin's certificate is invalid
		530:                                      // Cloudflare: origin DNS error (1016) and similar 1xxx errors
		return statusRule{code: toolerr.CodeUpstreamMisconfigured}
	case http.StatusInsufficientStorage, // 507: the account's storage is full, like a quota
		509: // cPanel: bandwidth limit exceeded for the billing period
		return statusRule{code: toolerr.CodeQuotaExhausted}
	}
	if status >= 400 && status <= 599 {
		// RFC 9110 says to treat an unknown status as x00 of its class, but
		// "fix the argument" without a field sends an agent in circles, and a
		// 500 is unclassified anyway: both classes fall back to unclassified.
		return statusRule{code: toolerr.CodeUpstreamUnclassified}
	}
	return statusRule{}
}
