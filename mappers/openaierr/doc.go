// Package openaierr classifies the errors of openai-go, OpenAI's Go SDK:
// an *openai.Error anywhere in a handler's error chain becomes a
// classify.Outcome of vendor "openai", and so a toolerr error with the
// right code, retryability, delay, field and upstream member.
//
// It is a Go module of its own, beside the core, because it imports
// openai-go: a service that does not call OpenAI never downloads it. Add it
// to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(openaierr.Mapper()))
//
// The error is read as the response it came from, by the same OpenAI
// translator that package translate applies to a raw response: the SDK
// keeps the error object and the response's headers, so error.code (else
// error.type) is the vendor code, error.param the field, x-request-id the
// request id, a 429 is told apart as a rate limit (wait: retry-after-ms,
// Retry-After, else the x-ratelimit-reset-* header of the limit that was
// hit) or an exhausted quota (insufficient_quota: do not retry), and the
// codes go through the OpenAI table that package translate registers (the
// middleware's classifier has it; a classifier of your own gets it from
// translate.NewSet). An error without its response (one a test built) is
// read from its fields.
//
// The core reads openai-go errors of every major version without this module:
// translate.Set.ReadSDKError reads what the error carries by field name,
// and every classifier translate.NewSet sets up (the middleware's,
// mcptool's, retrygate's) tries it after its mappers. This mapper matches
// its major's type and reads it the same way; it is kept for services
// that register it.
package openaierr
