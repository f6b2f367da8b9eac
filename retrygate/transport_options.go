package retrygate

import (
	"context"
	"time"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// defaultIdempotencyHeader is the header that carries an idempotency key
// unless WithIdempotencyHeader names another.
const defaultIdempotencyHeader = "Idempotency-Key"

// Option configures a [Transport].
type Option func(*transportConfig)

// transportConfig is what the options set; see each option for its
// default.
type transportConfig struct {
	policy         Policy
	noBudget       bool
	set            *translate.Set
	breakers       *Breakers
	breakersSet    bool // WithBreakers or WithoutBreaker was given
	attemptTimeout time.Duration
	attemptHeader  string
	keyHeader      string
	keyFromContext func(ctx context.Context) (string, bool)
	noHandoff      bool
	mappers        []classify.ErrorMapper
}

// WithPolicy sets the retry policy of every call. Default [DefaultPolicy](),
// budget included. A policy whose Budget is nil gets a budget of the
// Transport's own, NewBudget(BudgetSettings{}), shared by all its calls;
// one with NoBudget set retries without a budget.
func WithPolicy(p Policy) Option {
	return func(c *transportConfig) { c.policy = p }
}

// WithoutBudget turns the retry budget off, whatever the policy holds and
// wherever the option comes among the others, as Policy.NoBudget does:
// retries are bounded only by the policy's MaxAttempts and the deadline.
// Default: the budget is on.
func WithoutBudget() Option {
	return func(c *transportConfig) { c.noBudget = true }
}

// WithTranslateSet sets the translators that classify responses and the
// classifier of network errors. Default translate.NewSet(nil): the
// built-in translators over the default registry. A nil s keeps the
// default.
func WithTranslateSet(s *translate.Set) Option {
	return func(c *transportConfig) {
		if s != nil {
			c.set = s
		}
	}
}

// WithErrorMappers adds mappers of typed Go errors (see
// classify.ErrorMapper) to the classifier of the Set the Transport builds,
// for a base RoundTripper that returns an SDK's typed errors rather than
// network errors. A Set given with [WithTranslateSet] keeps its
// classifier's mappers: build it with translate.WithErrorMappers. Default:
// the built-in mappers only. For Do, see [Policy.WithErrorMappers].
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *transportConfig) { c.mappers = append(c.mappers, ms...) }
}

// WithBreakers sets the per-host circuit breakers, to share them among
// Transports. Default NewBreakers(BreakerSettings{}), one set per
// Transport, whose MeterProvider is the policy's (see
// [Policy.WithMeterProvider]): a host's breaker opens at 80 % failures over
// at least 20 calls in 10 s, stays open 5 s, then lets one trial call
// through. A nil b disables the breakers, as [WithoutBreaker] does.
func WithBreakers(b *Breakers) Option {
	return func(c *transportConfig) { c.breakers, c.breakersSet = b, true }
}

// WithoutHandoff turns the retry handoff off (see [Transport]): every call
// gets the policy's full attempts, even right after a call to the same host
// spent its retries, and the error built from a response whose retries are
// spent advertises the code's own retry_policy.max_attempts. The attempts
// made are still reported (upstream.attempts). Use it only when no caller
// retries the tool: otherwise the caller's retries multiply the Transport's.
// Default: the handoff is on.
func WithoutHandoff() Option {
	return func(c *transportConfig) { c.noHandoff = true }
}

// WithoutBreaker disables the circuit breakers: every attempt goes out.
func WithoutBreaker() Option {
	return func(c *transportConfig) { c.breakers, c.breakersSet = nil, true }
}

// WithAttemptTimeout bounds each attempt to d, below the caller's own
// deadline, so that a hung attempt leaves time for another. The timeout
// covers the whole attempt, reading the response body included (as
// http.Client.Timeout does): set it above the time the largest expected
// body takes to read. Default 0: no per-attempt timeout.
func WithAttemptTimeout(d time.Duration) Option {
	return func(c *transportConfig) { c.attemptTimeout = max(d, 0) }
}

// WithAttemptHeader sets a request header to the attempt number, from 1,
// on each attempt ("X-Attempt: 2"). Default "": no header.
func WithAttemptHeader(name string) Option {
	return func(c *transportConfig) { c.attemptHeader = name }
}

// WithIdempotencyHeader names the request header that carries an
// idempotency key. Default "Idempotency-Key". An empty name keeps the
// default.
func WithIdempotencyHeader(name string) Option {
	return func(c *transportConfig) {
		if name != "" {
			c.keyHeader = name
		}
	}
}

// WithKeyFromContext derives an idempotency key for a POST or PATCH that
// carries none, such as the id of the tool call the caller put in the
// context. The key is sent, unchanged, on every attempt, which makes the
// request retryable. f returns false when it has no key. Default none: a
// POST or PATCH without a key is sent once.
func WithKeyFromContext(f func(ctx context.Context) (string, bool)) Option {
	return func(c *transportConfig) { c.keyFromContext = f }
}
