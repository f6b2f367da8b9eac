package classify

import "github.com/toolerr/toolerr"

// The rule for server errors that no vendor code explains.
//
// A bare 500 (or a 5xx no status row names) is UPSTREAM_UNCLASSIFIED: in
// general nothing says the failure passes, and repeating the call may
// repeat a side effect. For some vendors the first half is not true: their
// official SDKs retry every such status, so the vendor designs its API for
// it, and a call that may be repeated (an idempotent method, or one that
// carries an idempotency key) is retried exactly as the SDK would. Such an
// outcome is UPSTREAM_UNAVAILABLE, retryable.
//
// The rule lives here, in one place, rather than in each translator: it
// depends only on the vendor's name, the status and whether the call may be
// repeated, all of which the Outcome carries, and it must also hold for
// outcomes a translator never saw (a caller that fills Vendor itself, a
// body no translator could read). Vendor codes and vendor evidence still
// win: a code the vendor's table maps is never overridden, and a vendor's
// "do not retry" (Stripe-Should-Retry: false, x-should-retry: false) keeps
// the outcome unclassified.

// sdkRetriesServerError reports whether the official SDKs of vendor retry
// a response of status with no error code they recognise. The vendor names
// are those of the built-in translators (package translate).
func sdkRetriesServerError(vendor string, status int) bool {
	if status < 500 || status > 599 {
		return false
	}
	switch vendor {
	case "aws":
		// The AWS SDKs' standard retry mode treats HTTP 500, 502, 503 and
		// 504 as transient, not every 5xx ("Retryable errors",
		// https://docs.aws.amazon.com/sdk-for-python/v1/guide/config-retries.html;
		// the same list as the AWS SDKs and Tools reference guide).
		return status == 500 || status == 502 || status == 503 || status == 504
	case "google":
		// Google's client libraries retry 5xx responses (Cloud Storage
		// retry strategy, https://cloud.google.com/storage/docs/retry-strategy:
		// "408, 429, and 5xx"; gsutil and google-api-python-client alike).
		return true
	case "stripe":
		// Stripe's SDKs (stripe-node, stripe-java, stripe-dotnet,
		// stripe-php: the shouldRetry of their request layers) retry every
		// status of 500 or more unless Stripe-Should-Retry is false, and
		// add an idempotency key to POSTs so that it is safe
		// (https://docs.stripe.com/error-low-level, "Server errors").
		return true
	case "anthropic", "openai":
		// Both official SDKs retry connection errors, 408, 409, 429 and
		// every status of 500 or more by default, unless x-should-retry
		// says otherwise ("Retries" in the READMEs of
		// https://github.com/anthropics/anthropic-sdk-python and
		// https://github.com/openai/openai-python).
		return true
	}
	return false
}

// serverErrorRetryable reports whether o, classified by its status as
// UPSTREAM_UNCLASSIFIED, is instead a passing failure by the rule above.
func serverErrorRetryable(o Outcome, ev Evidence) bool {
	return !o.Local && ev.Retry != AdviceDoNotRetry &&
		(o.Idempotent || idempotentMethod(o.Method)) &&
		sdkRetriesServerError(o.Vendor, o.Status)
}

// serverErrorCode is the code the rule gives.
const serverErrorCode = toolerr.CodeUpstreamUnavailable
