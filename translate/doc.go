// Package translate reads downstream vendors' error responses (their
// status, headers and body) into the outcome the central classifier
// understands: the vendor's own error code, its message, the offending
// field, delays written in the body, and the vendor facts that decide the
// class ("this 403 is a rate limit", "this 429 is an exhausted quota").
//
// A [Translator] knows one vendor, one gateway or one generic format. A
// [Set] holds translators and picks one for each response, most specific
// first:
//
//  1. a gateway translator that recognises the response (a Cloudflare,
//     nginx, ALB, CloudFront or Envoy error page stands in front of any
//     vendor);
//  2. the vendor the caller named;
//  3. the vendor whose host suffix the request's host ends with;
//  4. a vendor translator that recognises the response by its headers or
//     the shape of its body (a captured response carries no host);
//  5. the generic translators: RFC 9457 problem+json, the common JSON error
//     shapes, plain text, empty bodies.
//
// Errors that arrive with a 2xx status (Slack's ok:false, Shopify GraphQL
// THROTTLED, an S3 <Error> on a 200, GraphQL errors without data) are read
// too, but only by vendor translators and the GraphQL one: a 2xx HTML page
// or {"message": …} is a success.
//
// For code that calls vendors directly, [Response] (or [Set.Response])
// turns an *http.Response into nil or an *toolerr.Error, reading at most the
// body cap and leaving the body readable.
package translate
