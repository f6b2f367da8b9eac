package retrygate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Bounds on the body of a failed response.
const (
	// maxBuffered is the most of a failed response's body kept in memory
	// so that its connection goes back to the pool before the wait; a
	// longer body stays open until the next attempt goes out.
	maxBuffered = 64 << 10
	// maxDrain is the most read of a body being discarded before it is
	// closed; past it, closing the connection is cheaper than reading.
	maxDrain = 256 << 10
)

// transport is the RoundTripper Transport returns.
type transport struct {
	base       http.RoundTripper
	cfg        transportConfig
	classifier *classify.Classifier
	spent      spentHosts
}

// Transport returns an http.RoundTripper that sends each request through
// base (nil: http.DefaultTransport) under a retry policy, per-host circuit
// breakers and the translate Set (see the options for their defaults).
//
// One RoundTrip is one logical call, run by [Do]. Each attempt clones the
// request; attempts after the first rewind the body with GetBody, so a
// request with a body and no GetBody is sent once. GET, HEAD, OPTIONS,
// PUT, DELETE and TRACE are retried; POST and PATCH only when they carry an
// idempotency key (see [WithIdempotencyHeader] and [WithKeyFromContext]),
// which is the same on every attempt. Each response is classified by the
// Set, each network error by the Set's classifier; only a retryable
// rate_limit or transient failure is retried (see Do for the waits, the
// deadline rule and the budget). The body of a failed response is read
// (at most 64 KiB) and closed before the wait, so its connection is reused.
//
// Retries are on a budget by default, shared by all the Transport's calls:
// the policy's Budget, or one the Transport makes when that is nil (see
// [WithPolicy]); [WithoutBudget] or Policy.NoBudget turns it off. When the
// budget stops a call's retries, RoundTrip returns the last response. The
// per-host breakers are on by default too (see [WithBreakers]). With both,
// a host that fails every call receives about one request per call at
// first, then only the breaker's trial calls.
//
// RoundTrip returns the last attempt's response, whatever its status, with
// a nil error whenever a response arrived: callers see the vendor's own
// response as without the Transport. It returns an error only when the
// last attempt got no response (Do's *Error wrapping the classified
// *toolerr.Error), or when the host's breaker is open (CIRCUIT_OPEN, with
// retry_after_ms the time until the breaker lets a trial call through).
//
// The handoff, on by default ([WithoutHandoff] turns it off), keeps the
// agent's retries from multiplying the Transport's. Each attempt after the
// first carries a translate.Retries on its request's context, so the error
// translate.Response builds from the returned response reports the calls
// made (upstream.attempts), as does the error RoundTrip returns when no
// response arrived. When the call made its last attempt on a
// retryable failure, that error allows one more call by the agent
// (retry_policy.max_attempts 2, retry_after_ms the vendor's delay or the
// next backoff interval), and the host is marked: until a call to it
// succeeds or answers on purpose, or the advertised delay plus 30 s has
// passed, each call to it is sent once. A host that is down thus receives
// the policy's attempts for the agent's first call and one for its retry.
// The cost: right after a call spent its retries, a host that fails only
// some calls gets one attempt per call until one succeeds.
//
// Retries, retries the budget refused and the breakers' state are counted
// on the policy's meter provider, server.address being the request's URL
// host (see [Policy.WithMeterProvider] and [BreakerSettings]).
//
// The RoundTripper is safe for concurrent use.
func Transport(base http.RoundTripper, opts ...Option) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	cfg := transportConfig{
		policy:    DefaultPolicy(),
		keyHeader: defaultIdempotencyHeader,
	}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.policy.metrics == nil {
		cfg.policy.metrics = newRetryMetrics(cfg.policy.meters)
	}
	if !cfg.breakersSet {
		cfg.breakers = NewBreakers(BreakerSettings{MeterProvider: cfg.policy.meters})
	}
	switch {
	case cfg.noBudget || cfg.policy.NoBudget:
		cfg.policy.Budget, cfg.policy.NoBudget = nil, true
	case cfg.policy.Budget == nil:
		// A policy built by hand, or with its budget set to nil, still gets
		// one: only NoBudget or WithoutBudget turns it off.
		cfg.policy.Budget = NewBudget(BudgetSettings{})
	}
	if cfg.set == nil {
		// With the built-in tables NewSet does not fail; if it ever did,
		// translate.Response (the same translators) classifies instead.
		cfg.set, _ = translate.NewSet(nil, translate.WithErrorMappers(cfg.mappers...))
	}
	t := &transport{base: base, cfg: cfg}
	if cfg.set != nil {
		t.classifier = cfg.set.Classifier()
	}
	if t.classifier == nil {
		t.classifier = classify.New(nil)
	}
	return t
}

// CloseIdleConnections closes the base transport's idle connections when
// it can, so that http.Client.CloseIdleConnections reaches it.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// call is the state of one RoundTrip across its attempts.
type call struct {
	t         *transport
	req       *http.Request
	host      string // breaker key
	key       string // idempotency key to set on each attempt ("" when none or already set)
	keyed     bool   // the request carries an idempotency key
	canRetry  bool   // the request may be sent more than once
	once      bool   // the host's retries are spent: one attempt only
	policy    Policy // the call's policy, normalized
	sent      int    // attempts sent
	bodyUsed  bool   // req.Body went to an attempt
	report    func(verdict)
	last      *http.Response // the last attempt's response, nil when it got none
	lastClose func()         // ends the last attempt's context (nil: none)
	open      *toolerr.Error // CIRCUIT_OPEN that stopped the call
}

// RoundTrip runs one logical call; see [Transport].
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		return t.base.RoundTrip(req) // the base reports the malformed request
	}
	c := &call{t: t, req: req, host: breakerKey(req.URL.Host)}
	c.keyed = req.Header.Get(t.cfg.keyHeader) != ""
	if !c.keyed && (req.Method == http.MethodPost || req.Method == http.MethodPatch) && t.cfg.keyFromContext != nil {
		if k, ok := t.cfg.keyFromContext(req.Context()); ok && k != "" {
			c.key, c.keyed = k, true
		}
	}
	p := t.cfg.policy
	clk := clockOf(p)
	c.canRetry = c.retryable()
	switch {
	case !c.canRetry:
		p.MaxAttempts = 1
	case !t.cfg.noHandoff && t.spent.spent(c.host, clk.Now()):
		// The last call spent its retries on this host, and the agent was
		// told it may call once more: this call goes out once.
		p.MaxAttempts, c.once = 1, true
	}
	c.policy = normalize(p)
	// The first attempt's breaker check comes before Do: a call rejected
	// outright makes no attempt and is not run through the retry loop.
	report, rejected := t.cfg.breakers.allow(c.host)
	if rejected != nil {
		closeRequestBody(req)
		return nil, rejected
	}
	c.report = report
	err := do(req.Context(), p, c.attempt, callMetrics{m: p.metrics, host: c.host})
	if !c.bodyUsed {
		closeRequestBody(req)
	}
	if c.canRetry && !t.cfg.noHandoff {
		c.remember(err, clk)
	}
	switch {
	case c.last != nil:
		return c.last, nil
	case c.open != nil:
		return nil, &Error{Attempts: c.sent, Err: c.open}
	default:
		return nil, c.reported(err)
	}
}

// reported returns Do's error for a call whose last attempt got no
// response, with the call's retries reported on its *toolerr.Error, as
// translate.Response reports them on an error built from a response.
func (c *call) reported(err error) error {
	var de *Error
	if !errors.As(err, &de) {
		return err
	}
	te, ok := de.Err.(*toolerr.Error)
	rec, recorded := c.retries(c.sent)
	if !ok || !recorded {
		return err
	}
	return &Error{Attempts: de.Attempts, Err: rec.Apply(te)}
}

// remember marks the host when the call spent its retries on a retryable
// failure, and clears the mark when the host answered: a success, or a
// failure that is not retried.
func (c *call) remember(err error, clk Clock) {
	if err == nil {
		c.t.spent.clear(c.host)
		return
	}
	te, retry := retryable(c.req.Context(), c.policy, err)
	switch {
	case !retry:
		if te != nil && breakerVerdict(c.req.Context(), te) == verdictSuccess {
			c.t.spent.clear(c.host)
		}
	case c.sent >= c.policy.MaxAttempts && (c.sent > 1 || c.once):
		wait := max(c.wait(), min(te.RetryAfter, c.policy.MaxServerDelay))
		now := clk.Now()
		c.t.spent.mark(c.host, now, now.Add(wait+spentGrace))
	}
}

// wait is the delay advertised when the call's retries are spent: the
// backoff interval after the policy's last attempt.
func (c *call) wait() time.Duration {
	return nextInterval(c.policy, max(c.sent, c.t.cfg.policy.MaxAttempts))
}

// retries is what attempt n tells translate about the call's retries, for
// the error built from its response (see translate.Retries); ok is false
// for the first attempt of a call that may retry it.
func (c *call) retries(n int) (translate.Retries, bool) {
	if !c.canRetry || (n == 1 && !c.once) {
		return translate.Retries{}, false
	}
	last := n >= c.policy.MaxAttempts && !c.t.cfg.noHandoff
	r := translate.Retries{Attempt: n, Spent: last}
	if last {
		r.Wait = c.wait()
	}
	return r, true
}

// retryable reports whether the request may be sent more than once.
func (c *call) retryable() bool {
	r := c.req
	if r.Body != nil && r.Body != http.NoBody && r.GetBody == nil {
		return false // the body cannot be rewound
	}
	switch r.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete, http.MethodTrace:
		return true
	case http.MethodPost, http.MethodPatch:
		return c.keyed
	default:
		return false
	}
}

// attempt sends one attempt; it is the operation Do repeats.
func (c *call) attempt(ctx context.Context) error {
	report := c.report
	c.report = nil
	if report == nil {
		var rejected *toolerr.Error
		if report, rejected = c.t.cfg.breakers.allow(c.host); rejected != nil {
			// The breaker opened during the call: stop, and return the
			// last response (or CIRCUIT_OPEN when there is none).
			c.open = rejected
			return rejected.WithRetryable(false)
		}
	}
	// Another attempt goes out: the previous response is dropped.
	c.dropLast()

	r, cancel, err := c.prepare(ctx, c.sent+1)
	if err != nil {
		report(verdictExcluded)
		return err
	}
	c.sent++
	resp, err := c.t.base.RoundTrip(r)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		e := c.t.goError(ctx, err, r.Method, c.keyed, r.URL.Hostname())
		report(breakerVerdict(ctx, e))
		return e
	}
	e := c.t.classify(resp, c.keyed)
	report(breakerVerdict(ctx, e))
	c.last = resp
	if e == nil {
		if cancel != nil {
			resp.Body = &cancelBody{Reader: resp.Body, closer: resp.Body, cancel: cancel}
		}
		return nil
	}
	c.lastClose = settle(resp, cancel)
	return e
}

// prepare builds attempt n's request: its context (with the attempt
// timeout), its body, the idempotency key and the attempt header. cancel
// is nil without an attempt timeout.
func (c *call) prepare(ctx context.Context, n int) (*http.Request, context.CancelFunc, error) {
	cfg := &c.t.cfg
	var body io.ReadCloser
	if n == 1 {
		body, c.bodyUsed = c.req.Body, true
	} else if body = c.req.Body; body != nil && body != http.NoBody {
		b, err := c.req.GetBody()
		if err != nil {
			return nil, nil, toolerr.Default().New(toolerr.CodeInternal, "").
				WithCause(fmt.Errorf("retrygate: rewinding the request body: %w", err))
		}
		body = b
	}
	record, recorded := c.retries(n)
	if n == 1 && !recorded && cfg.attemptTimeout == 0 && c.key == "" && cfg.attemptHeader == "" {
		return c.req, nil, nil // nothing to change: send the request as is
	}
	var cancel context.CancelFunc
	if cfg.attemptTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, cfg.attemptTimeout)
	}
	if recorded {
		ctx = translate.WithRetries(ctx, record)
	}
	r := c.req.Clone(ctx)
	r.Body = body
	if c.key != "" {
		r.Header.Set(cfg.keyHeader, c.key)
	}
	if cfg.attemptHeader != "" {
		r.Header.Set(cfg.attemptHeader, strconv.Itoa(n))
	}
	return r, cancel, nil
}

// dropLast discards the last attempt's response: its body is drained
// (bounded) and closed, and its attempt context ended.
func (c *call) dropLast() {
	if c.last == nil {
		return
	}
	if b := c.last.Body; b != nil {
		_, _ = io.CopyN(io.Discard, b, maxDrain)
		_ = b.Close()
	}
	if c.lastClose != nil {
		c.lastClose()
	}
	c.last, c.lastClose = nil, nil
}

// classify returns the failure resp shows, nil for a success.
func (t *transport) classify(resp *http.Response, keyed bool) *toolerr.Error {
	var err error
	switch {
	case t.cfg.set == nil:
		err = translate.Response(resp)
	case keyed && resp.Request != nil && !strings.EqualFold(t.cfg.keyHeader, defaultIdempotencyHeader):
		// The Set sees a key only in Idempotency-Key: show it a copy of
		// the request that carries one, so keyed failures of unknown
		// outcome stay retryable.
		view := *resp
		req := *resp.Request
		req.Header = resp.Request.Header.Clone()
		req.Header.Set(defaultIdempotencyHeader, "1")
		view.Request = &req
		err = t.cfg.set.Response(&view)
		resp.Body = view.Body
	default:
		err = t.cfg.set.Response(resp)
	}
	if err == nil {
		return nil
	}
	if e, ok := toolerr.From(err); ok {
		return e
	}
	return toolerr.Default().New(toolerr.CodeInternal, "").WithCause(err)
}

// goError classifies a network error of an attempt to host; an error no
// rule knows is INTERNAL_ERROR, which is not retried.
func (t *transport) goError(ctx context.Context, err error, method string, keyed bool, host string) *toolerr.Error {
	e, ok := t.classifier.GoError(ctx, err, method, keyed)
	if !ok || e == nil {
		e = toolerr.Default().New(toolerr.CodeInternal, "").WithCause(err)
	}
	if e.Upstream == nil && host != "" {
		e = e.WithUpstream(toolerr.Upstream{Vendor: host})
	}
	return e
}

// settle reads a failed response's body into memory (up to maxBuffered)
// and closes it, so the connection is reused, leaving resp readable from
// the start. A longer body is left open in front of the rest. It returns
// what must run when the response is dropped (nil: nothing).
func settle(resp *http.Response, cancel context.CancelFunc) func() {
	body := resp.Body
	if body == nil || body == http.NoBody {
		return cancel
	}
	buf, err := io.ReadAll(io.LimitReader(body, maxBuffered+1))
	if err != nil || len(buf) <= maxBuffered {
		// All of it, or all that a broken body gave.
		_ = body.Close()
		if cancel != nil {
			cancel()
		}
		resp.Body = io.NopCloser(bytes.NewReader(buf))
		return nil
	}
	resp.Body = &cancelBody{Reader: io.MultiReader(bytes.NewReader(buf), body), closer: body, cancel: cancel}
	return nil // closing the body ends the attempt context
}

// cancelBody is a response body whose Close also ends its attempt's
// context.
type cancelBody struct {
	io.Reader
	closer io.Closer
	cancel context.CancelFunc
}

// Close closes the body and ends the attempt context.
func (b *cancelBody) Close() error {
	err := b.closer.Close()
	if b.cancel != nil {
		b.cancel()
	}
	return err
}

// closeRequestBody closes a request body no attempt took, as a
// RoundTripper must.
func closeRequestBody(r *http.Request) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
}
