// Package stripeerr classifies the errors of stripe-go, Stripe's Go SDK:
// a *stripe.Error anywhere in a handler's error chain becomes a
// classify.Outcome of vendor "stripe", and so a toolerr error with the
// right code, retryability, delay, field and upstream member.
//
// It is a Go module of its own, beside the core, because it imports
// stripe-go: a service that does not call Stripe never downloads it. Add
// it to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(stripeerr.Mapper()))
//
// The error is read as the response it came from, by the same Stripe
// translator that package translate applies to a raw response: the SDK
// keeps the body and headers of the failed response, so error.code (else
// error.type) is the vendor code, a decline_code decides the class of a
// decline, the concealed decline codes (fraudulent, stolen_card, …) reach
// the details as generic_decline, Stripe-Should-Retry and Retry-After are
// read, an api_error without Stripe-Should-Retry (an outcome Stripe calls
// indeterminate) is retried only for an idempotent tool call, and the codes go through the Stripe table that package translate
// registers (the middleware's classifier has it; a classifier of your own
// gets it from translate.NewSet). An error without its response (one a
// test built) is read from its fields.
//
// The core reads stripe-go errors of every major version without this module:
// translate.Set.ReadSDKError reads what the error carries by field name,
// and every classifier translate.NewSet sets up (the middleware's,
// mcptool's, retrygate's) tries it after its mappers. This mapper matches
// its major's type and reads it the same way; it is kept for services
// that register it.
package stripeerr
