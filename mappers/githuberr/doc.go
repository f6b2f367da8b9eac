// Package githuberr classifies the errors of go-github
// (github.com/google/go-github), the GitHub REST API client: a
// *github.ErrorResponse, *github.RateLimitError or
// *github.AbuseRateLimitError anywhere in a handler's error chain becomes
// a classify.Outcome of vendor "github", and so a toolerr error with the
// right code, retryability, delay and field.
//
// It is a Go module of its own, beside the core, because it imports
// go-github: a service that does not call GitHub never downloads it. Add
// it to the middleware, mcptool or a classifier:
//
//	middleware.New(middleware.WithErrorMappers(githuberr.Mapper()))
//
// The error is read by package translate's GitHub rules, the ones that
// read GitHub's responses on the wire: the status, message,
// documentation_url, the first errors[] entry (its code through GitHub's
// code table, its field as the field), X-GitHub-Request-Id, and the
// rate-limit evidence of a 403 or 429. The code table is the one package
// translate registers on a classifier (the middleware's classifier has
// it; a classifier of your own gets it from translate.NewSet). A primary
// rate limit waits until the reset go-github read (Rate.Reset); a
// secondary one waits the RetryAfter go-github read, else one minute, as
// GitHub's documentation asks ("wait for at least one minute before
// retrying").
//
// The core reads go-github errors of every major version without this module:
// translate.Set.ReadSDKError reads what the error carries by field name,
// and every classifier translate.NewSet sets up (the middleware's,
// mcptool's, retrygate's) tries it after its mappers. This mapper matches
// its major's type and reads it the same way; it is kept for services
// that register it.
package githuberr
