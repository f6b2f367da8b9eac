// Package slackerr classifies the errors of slack-go
// (github.com/slack-go/slack), the Slack Web API client: a
// slack.SlackErrorResponse, *slack.RateLimitedError or
// slack.StatusCodeError anywhere in a handler's error chain becomes a
// classify.Outcome of vendor "slack", and so a toolerr error with the
// right code, retryability, delay and field.
//
// It is a Go module of its own, beside the core, because it imports
// slack-go: a service that does not call Slack never downloads it. Add it
// to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(slackerr.Mapper()))
//
// A SlackErrorResponse is Slack's {"ok": false, "error": "…"} envelope as
// slack-go decoded it; it is read by package translate's Slack rules, the
// ones that read Slack's responses on the wire: the error token is the
// vendor code, looked up in Slack's code table (the one package translate
// registers on a classifier: the middleware's classifier has it, a
// classifier of your own gets it from translate.NewSet), the first
// response_metadata message is the message and its json-pointer the
// field, and needed/provided scopes are details. internal_error and
// fatal_error may have partly run (Slack's docs say so), so they are
// retried only for idempotent calls. A RateLimitedError (HTTP 429 with
// Retry-After) is RATE_LIMITED after its RetryAfter; a StatusCodeError
// (any other status but 200) is read by its status.
package slackerr
