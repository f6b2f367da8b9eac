// Package classify is the one central mapping from a downstream outcome to a
// *toolerr.Error: an HTTP status, vendor headers, a vendor error code read
// by a translator, a typed error of an SDK, a gRPC call or a database
// driver read by an [ErrorMapper], or a Go network or context error.
//
// Typed errors reach the classifier through mappers ([WithErrorMappers]),
// tried in order, the service's before the built-in ones ([SQLMapper],
// [SQLStateMapper], [SmithyMapper], [RedisMapper], which match methods and
// import no SDK); the outcome a mapper gives is then decided by the same
// precedence as a translator's.
//
// Precedence, most specific first:
//
//  1. A vendor code a translator read and registered with
//     [Classifier.RegisterVendor]: the outcome's ClassCode (a finer code,
//     such as Stripe's decline_code) if the table maps it, else its
//     VendorCode unless that is a generic catch-all.
//  2. Header evidence that decides the case whatever the status: a bot
//     challenge (cf-mitigated: challenge) is a policy block, a 403 with
//     x-ratelimit-remaining: 0 is a rate limit, Stripe-Should-Retry and
//     x-should-retry set retryability.
//  3. The status table (see [StatusCode]). A 5xx the table leaves
//     unclassified (a bare 500), with no vendor code that explains it, is
//     UPSTREAM_UNAVAILABLE and retryable when the vendor's official SDKs
//     retry it (AWS, Google, Stripe, Anthropic, OpenAI) and the call may be
//     repeated (an idempotent method or an idempotency key).
//  4. Go errors: cancellation, deadlines and timeouts, refused and reset
//     connections, unexpected EOF, DNS and TLS failures.
//  5. UPSTREAM_UNCLASSIFIED, not retryable, reported to the [Observer].
//
// A timeout, or a dropped connection after the request may have been sent,
// leaves the outcome unknown: such errors are retryable only when the call
// was idempotent (a safe or idempotent method, or an idempotency key).
//
// Delays are read in one place ([ParseDelay], [RetryDelay], [ResetDelay])
// and capped (60 s by default).
package classify
