package classify

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// DefaultMaxDelay caps every delay the classifier reads, unless
// [WithMaxDelay] sets another cap.
const DefaultMaxDelay = 60 * time.Second

// Classifier turns downstream outcomes into errors of one registry. It is
// safe for concurrent use; vendor tables may be registered at any time.
type Classifier struct {
	reg      *toolerr.Registry
	maxDelay time.Duration
	observer Observer
	filter   func(string) string
	now      func() time.Time

	mappers []ErrorMapper // WithErrorMappers', before the built-in ones

	mu        sync.Mutex // serialises RegisterVendor and RegisterSDKReader
	vendors   atomic.Pointer[map[vendorKey]string]
	sdkReader atomic.Pointer[ErrorMapper] // RegisterSDKReader's, after mappers
}

// Option configures a [Classifier].
type Option func(*Classifier)

// WithMaxDelay caps the delays read from headers and translators.
// Default: [DefaultMaxDelay] (60 s). A delay above the cap becomes the cap.
func WithMaxDelay(d time.Duration) Option {
	return func(c *Classifier) {
		if d > 0 {
			c.maxDelay = d
		}
	}
}

// WithObserver sets the observer told of unmapped classifications.
// Default: none.
func WithObserver(o Observer) Option {
	return func(c *Classifier) { c.observer = o }
}

// WithMessageFilter sets the filter that vendor messages, field names and
// string details pass through before they reach the error.
//
// Default: the sanitizer of package middleware/sanitize with its default
// options (secrets, hosts, paths, stack traces and markup removed), so that
// a vendor's message, field and string details, such as Stripe's
// decline_code and doc_url, reach the error cleaned. A service that
// configures its own sanitizer passes its CleanText here, as the middleware
// does. WithMessageFilter(nil) turns vendor text off altogether: Detail is
// the code's fixed title, string details are dropped, and a field is kept
// only if it looks like a plain path. Untrusted text never reaches an error
// unfiltered.
func WithMessageFilter(f func(string) string) Option {
	return func(c *Classifier) { c.filter = f }
}

// defaultFilter is the message filter of a classifier built without
// [WithMessageFilter]: one default sanitizer, shared, which is safe for
// concurrent use and holds no state between calls.
var defaultFilter = sync.OnceValue(func() func(string) string {
	return sanitize.New().CleanText
})

// WithClock sets the clock that HTTP-date and epoch delays are measured
// from. Default: time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *Classifier) {
		if now != nil {
			c.now = now
		}
	}
}

// New returns a classifier that builds errors from reg (nil: toolerr.Default()).
// The codes it emits must be registered in reg, which holds for any registry
// that extends the default.
func New(reg *toolerr.Registry, opts ...Option) *Classifier {
	if reg == nil {
		reg = toolerr.Default()
	}
	c := &Classifier{reg: reg, maxDelay: DefaultMaxDelay, now: time.Now, filter: defaultFilter()}
	for _, o := range opts {
		o(c)
	}
	empty := map[vendorKey]string{}
	c.vendors.Store(&empty)
	// The built-in mappers' tables and those of the mappers added with
	// WithErrorMappers. A registry that lacks their codes (one that does
	// not extend the default) classifies those errors by the fallback
	// instead.
	_ = c.RegisterVendor(VendorSQL, sqlTable)
	_ = c.RegisterVendor(VendorPostgres, sqlStateTable)
	_ = c.RegisterVendor(VendorRedis, redisTable)
	for _, m := range c.mappers {
		if t, ok := m.(VendorTabler); ok {
			for vendor, table := range t.VendorTables() {
				_ = c.RegisterVendor(vendor, table)
			}
		}
	}
	return c
}

// Rule names the precedence step that decided a classification.
type Rule int

// The precedence steps, most specific first.
const (
	RuleVendorCode Rule = iota + 1
	RuleEvidence
	RuleStatus
	RuleGoError
	RuleFallback
)

var ruleNames = [...]string{"", "vendor_code", "evidence", "status", "go_error", "fallback"}

// String returns the rule's name.
func (r Rule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return "unknown"
	}
	return ruleNames[r]
}

// Decision is a classification before an error is built from it. Deciding
// allocates nothing.
type Decision struct {
	// Code is the toolerr code.
	Code string
	// Category is the code's category.
	Category toolerr.Category
	// Retryable says whether the same call can succeed if retried.
	Retryable bool
	// Delay is how long to wait before retrying; 0 when not retryable or unknown.
	Delay time.Duration
	// Rule is the precedence step that decided.
	Rule Rule
	// Unmapped is true when a vendor code matched no table or the outcome
	// fell back to UPSTREAM_UNCLASSIFIED.
	Unmapped bool
	// detail is a fixed, safe description from a Go-error rule.
	detail string
}

// Decide classifies o without building an error, by the precedence in the
// package documentation.
func (c *Classifier) Decide(o Outcome) Decision {
	var d Decision
	unknownOutcome := false
	evidence := c.evidence(o)
	mapped, vendorKnown := c.vendorCodes(o)
	d.Unmapped = o.VendorCode != "" && !o.GenericCode && !vendorKnown
	row := statusRow(o.Status)
	if o.Local {
		row = localRow(o.Status)
	}
	switch {
	case vendorKnown:
		d.Code, d.Rule = mapped, RuleVendorCode
	case evidence.Challenge:
		d.Code, d.Rule = toolerr.CodePolicyBlocked, RuleEvidence
	case evidence.RateLimited:
		d.Code, d.Rule = toolerr.CodeRateLimited, RuleEvidence
	case evidence.Retry == AdviceRetry && o.Status >= 400 && !c.canRetry(row.code):
		// The vendor vouches that this status is passing (Stripe's 409 lock
		// timeouts): report it as unavailable rather than as its status class.
		d.Code, d.Rule = toolerr.CodeUpstreamUnavailable, RuleEvidence
	case row.code != "":
		d.Code, d.Rule, unknownOutcome = row.code, RuleStatus, row.unknownOutcome
	case o.Status == 0 && o.Err != nil:
		rules := goErrorRow
		if o.Local {
			rules = localGoRow
		}
		if g, ok := rules(o.Err); ok {
			d.Code, d.Rule, d.detail, unknownOutcome = g.code, RuleGoError, g.detail, g.unknownOutcome
		}
	}
	if d.Code == toolerr.CodeUpstreamUnclassified && d.Rule == RuleStatus && serverErrorRetryable(o, evidence) {
		// A 5xx no vendor code explains, from a vendor whose SDKs retry
		// it, on a call that may be repeated (see sdkretry.go).
		d.Code = serverErrorCode
	}
	if d.Code == "" {
		d.Code, d.Rule = toolerr.CodeUpstreamUnclassified, RuleFallback
	}
	if o.Local {
		// A vendor table or the evidence rules may name an UPSTREAM_* code
		// (an OAuth body's temporarily_unavailable): the failure is ours.
		d.Code = localize(d.Code, o.Status)
	}
	category, retryable, ok := c.reg.Kind(d.Code)
	if !ok {
		// A vendor table can only name registered codes, and the built-in
		// ones are in every registry that extends the default; a registry
		// that does not gets the fallback rather than an unknown code.
		d.Code, d.Rule = toolerr.CodeUpstreamUnclassified, RuleFallback
		category, retryable, _ = c.reg.Kind(d.Code)
	}
	d.Category = category
	d.Unmapped = d.Unmapped || d.Code == toolerr.CodeUpstreamUnclassified
	switch {
	case evidence.Retry == AdviceDoNotRetry:
		retryable = false
	case evidence.Retry == AdviceRetry && category.CanRetry():
		retryable = true
	}
	if (unknownOutcome || o.UnknownOutcome) && !o.Idempotent && !idempotentMethod(o.Method) {
		retryable = false
	}
	d.Retryable = retryable
	if retryable {
		d.Delay = c.delay(o, category)
	}
	return d
}

// vendorCodes returns the toolerr code o's vendor codes map to: its
// ClassCode if the vendor's table maps it, else its VendorCode unless that
// is generic.
func (c *Classifier) vendorCodes(o Outcome) (string, bool) {
	if o.ClassCode != "" {
		if code, ok := c.vendorCode(o.Vendor, o.ClassCode); ok {
			return code, true
		}
	}
	if o.VendorCode == "" || o.GenericCode {
		return "", false
	}
	return c.vendorCode(o.Vendor, o.VendorCode)
}

// canRetry reports whether code's category may be retryable.
func (c *Classifier) canRetry(code string) bool {
	category, _, ok := c.reg.Kind(code)
	return ok && category.CanRetry()
}

// evidence merges the translator's evidence with what the headers decide.
func (c *Classifier) evidence(o Outcome) Evidence {
	ev := o.Evidence
	h := o.Header
	if h == nil {
		return ev
	}
	if strings.EqualFold(canonheader.Value(h, "Cf-Mitigated"), "challenge") {
		ev.Challenge = true
	}
	// GitHub answers an exhausted primary rate limit with 403 and
	// x-ratelimit-remaining: 0; a 403 with requests left is a real denial.
	if o.Status == http.StatusForbidden && strings.TrimSpace(canonheader.Value(h, "X-Ratelimit-Remaining")) == "0" {
		ev.RateLimited = true
	}
	if ev.Retry == AdviceNone {
		for _, name := range [...]string{"Stripe-Should-Retry", "X-Should-Retry"} {
			switch strings.ToLower(strings.TrimSpace(canonheader.Value(h, name))) {
			case "true":
				ev.Retry = AdviceRetry
			case "false":
				ev.Retry = AdviceDoNotRetry
			}
		}
	}
	return ev
}

// delay picks the wait for a retryable outcome: the translator's, else the
// retry-after headers, else for rate limits the reset headers; capped.
func (c *Classifier) delay(o Outcome, category toolerr.Category) time.Duration {
	if o.Delay > 0 {
		return min(o.Delay, c.maxDelay)
	}
	if o.Header == nil {
		return 0
	}
	now := c.now()
	if d, ok := RetryDelay(o.Header, now, c.maxDelay); ok {
		return d
	}
	if category == toolerr.CategoryRateLimit {
		if d, ok := ResetDelay(o.Header, now, c.maxDelay); ok {
			return d
		}
	}
	return 0
}

// idempotentMethod reports whether RFC 9110 defines method as idempotent.
// The empty method is GET, as in net/http.
func idempotentMethod(method string) bool {
	switch method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace,
		http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}
