// Package unmapped keeps samples of the downstream responses that no
// mapping explained (a vendor code no table maps, or
// UPSTREAM_UNCLASSIFIED), so an operator can read what the vendor sent
// and update the translator, without the secrets in it.
//
// A [Sampler] is offered each unmapped response ([Sampler.Offer]). It
// keeps a bounded, rate-limited sample of it: the upstream status, an
// allow-listed set of headers (facts such as Content-Type, Retry-After,
// Server and the vendors' request-id headers; never Set-Cookie,
// Authorization or WWW-Authenticate), the sanitized start of the body, the
// vendor the response was attributed to and the vendor's code. Every text
// of a sample goes through the sanitizer (secrets, payment data, stack
// traces, HTML, internal hosts) before it is kept, logged or served.
//
// A sample is written to the log as one Warn record ("toolerr: unmapped
// response sample") and kept in a ring of recent samples, which
// [Sampler.ServeHTTP] lists as JSON or plain text. That handler is an
// operator endpoint: mount it behind the service's own authentication.
//
// Memory stays bounded under a flood: one vendor and status pair is
// sampled at most once a minute (by default), all pairs together at most
// ten times a second, the ring holds 64 samples, and at most [MaxPairs]
// pairs are remembered. A response that is not sampled costs a map
// lookup under a mutex and allocates nothing; it is counted, and the next
// sample of its pair says how many were suppressed.
//
// A Sampler is safe for concurrent use. A nil *Sampler samples nothing, so
// a caller can hold an optional one.
package unmapped
