// Package googleerr classifies the errors of the Google API Go client
// (google.golang.org/api, its generated REST clients: Drive, Sheets,
// Calendar, Tasks, …): a *googleapi.Error anywhere in a handler's error
// chain becomes a classify.Outcome of vendor "google", and so a toolerr
// error with the right code, retryability, delay and field.
//
// It is a Go module of its own, beside the core, because it imports
// google.golang.org/api: a service that does not call Google APIs never
// downloads it. Add it to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(googleerr.Mapper()))
//
// The error is read by package translate's Google rules, the ones that
// read Google's responses on the wire, from the response body the client
// kept (or, for an error built without one, from its code, message,
// errors[] and details encoded again): the google.rpc.Status with its
// typed details (ErrorInfo's reason is the vendor code, RetryInfo's delay
// the delay, BadRequest's first field violation the field, Help's link
// and the quota metadata details), the legacy errors[].reason, per-day
// quotas told from per-minute ones. Codes are looked up in Google's code
// table, the one package translate registers on a classifier (the
// middleware's classifier has it; a classifier of your own gets it from
// translate.NewSet). A server failure that may have run (INTERNAL,
// backendError) is retried only for idempotent calls.
//
// The core reads the Google API client's errors without this module:
// translate.Set.ReadSDKError reads what the error carries by field name,
// and every classifier translate.NewSet sets up (the middleware's,
// mcptool's, retrygate's) tries it after its mappers. This mapper matches
// its major's type and reads it the same way; it is kept for services
// that register it.
package googleerr
