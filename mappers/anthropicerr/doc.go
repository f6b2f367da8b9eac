// Package anthropicerr classifies the errors of anthropic-sdk-go,
// Anthropic's Go SDK: an *anthropic.Error anywhere in a handler's error
// chain becomes a classify.Outcome of vendor "anthropic", and so a toolerr
// error with the right code, retryability, delay, field and upstream
// member.
//
// It is a Go module of its own, beside the core, because it imports
// anthropic-sdk-go: a service that does not call Anthropic never downloads
// it. Add it to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(anthropicerr.Mapper()))
//
// The error is read as the response it came from, by the same Anthropic
// translator that package translate applies to a raw response: the SDK
// keeps the body and the response's headers, so error.type is the vendor
// code (overloaded_error on a 529, rate_limit_error on a 429), or
// error.details.error_code when Anthropic names one; a rate limit waits
// for retry-after-ms or Retry-After, else for the anthropic-ratelimit-*
// reset of the limit that was hit; a low credit balance is a billing
// error, not retried; and the codes go through the Anthropic table that
// package translate registers (the middleware's classifier has it; a
// classifier of your own gets it from translate.NewSet). An error without
// its response (one a test built) is read from its fields.
//
// The core reads anthropic-sdk-go errors of every major version without this module:
// translate.Set.ReadSDKError reads what the error carries by field name,
// and every classifier translate.NewSet sets up (the middleware's,
// mcptool's, retrygate's) tries it after its mappers. This mapper matches
// its major's type and reads it the same way; it is kept for services
// that register it.
package anthropicerr
