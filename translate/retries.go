package translate

import (
	"context"
	"time"

	"github.com/toolerr/toolerr"
)

// Retries is what a retrying HTTP client did before the response it
// returns. The client puts it on the context of that response's request
// ([WithRetries]); retrygate.Transport does. [Set.Response] reports it in
// the error it builds, so that an agent that retries the tool does not
// multiply the client's own retries:
//
//   - upstream.attempts is Attempt, the calls already made to the vendor;
//   - when Spent and the failure is retryable, retry_policy.max_attempts is
//     2 (the agent's call and one more, which the client sends once, see
//     retrygate.Transport) and retry_after_ms is the vendor's delay, or
//     Wait when the vendor gave none.
type Retries struct {
	// Attempt is the number of the attempt that got the response, from 1.
	Attempt int
	// Spent is true when the client will not retry this failure: it made
	// the last attempt its policy allows, and will send the next call to
	// the same host once.
	Spent bool
	// Wait is how long the client would have waited before another
	// attempt.
	Wait time.Duration
}

// retriesKey is the context key of a Retries.
type retriesKey struct{}

// WithRetries returns a copy of ctx that carries r, for the request whose
// response r describes.
func WithRetries(ctx context.Context, r Retries) context.Context {
	return context.WithValue(ctx, retriesKey{}, r)
}

// RetriesOf returns the Retries ctx carries.
func RetriesOf(ctx context.Context) (Retries, bool) {
	r, ok := ctx.Value(retriesKey{}).(Retries)
	return r, ok
}

// spentRetryAttempts is the retry_policy.max_attempts of a failure whose
// client spent its retries: the agent's call that got it, and one more.
const spentRetryAttempts = 2

// Apply returns a copy of e that reports r: upstream.attempts, and when r
// is Spent and e retryable, retry_policy.max_attempts 2 and Wait as
// retry_after_ms unless e has a delay (see [Retries]). [Set.Response]
// applies the Retries of a response's request; a retrying client applies
// its own to an error built without a response (a network error). A nil
// e, or an r with no attempt, returns e.
func (r Retries) Apply(e *toolerr.Error) *toolerr.Error {
	if e == nil || r.Attempt < 1 {
		return e
	}
	c := *e
	if e.Upstream != nil {
		u := *e.Upstream
		u.Attempts = r.Attempt
		c.Upstream = &u
	}
	if r.Spent && c.Retryable {
		if c.RetryPolicy != nil {
			p := *c.RetryPolicy
			p.MaxAttempts = min(p.MaxAttempts, spentRetryAttempts)
			c.RetryPolicy = &p
		}
		if c.RetryAfter <= 0 {
			c.RetryAfter = r.Wait
		}
	}
	return &c
}
