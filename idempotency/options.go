package idempotency

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// Defaults of [Middleware].
const (
	DefaultHeader     = "Idempotency-Key"
	DefaultMaxKeyLen  = 255
	DefaultRetention  = 24 * time.Hour
	DefaultLease      = time.Minute
	DefaultMaxBody    = 1 << 20
	DefaultMaxStored  = 1 << 20
	replayedHeader    = "Idempotent-Replayed"
	retentionHeader   = "Idempotency-Retention"
	inProgressMinWait = time.Second
)

// DefaultReplayHeaders are the response headers a replay repeats: those
// that describe the stored body or the created resource.
var DefaultReplayHeaders = []string{"Content-Type", "Content-Language", "Content-Location", "Location", "Etag", "Last-Modified", "Link"}

// Option configures [Middleware], [DuplicateGuard] and [ToolCalls]; each
// option says which of them it applies to when not all.
type Option func(*config)

type config struct {
	header        string
	required      bool
	maxKeyLen     int
	principal     func(*http.Request) string
	tool          func(*http.Request) string
	fingerprint   func(r *http.Request, body []byte) string
	retention     time.Duration
	lease         time.Duration
	wait          time.Duration
	storeFailures bool
	replayHeaders []string
	failOpen      bool
	sharedAnon    bool
	storeTimeout  time.Duration
	maxBody       int
	maxStored     int
	registry      *toolerr.Registry
	format        toolerr.Format
	logger        *slog.Logger
	now           func() time.Time
	window        time.Duration // DuplicateGuard and ToolCalls only
	digestKey     []byte        // WithFingerprintKey
	keyName       string        // ToolCalls only
	thrashAfter   int           // ThrashGuard and ThrashCalls only
	thrashWindow  time.Duration // ThrashGuard and ThrashCalls only
	// redact removes secrets from a failure body stored without a
	// request scope (storedBody): a default sanitizer's secret stage.
	redact func(string) string
	// meters is the provider of [WithMeterProvider] (nil: the global
	// one), and metrics the counters built from it (metrics.go).
	meters  metric.MeterProvider
	metrics counters
}

// WithHeader sets the request header that carries the key. Default:
// [DefaultHeader] ("Idempotency-Key").
func WithHeader(name string) Option {
	return func(c *config) {
		if name != "" {
			c.header = http.CanonicalHeaderKey(name)
		}
	}
}

// Required makes the key mandatory on mutating requests: one without it
// gets IDEMPOTENCY_KEY_MISSING (400). Default: optional; a request without
// a key runs as it would without the middleware.
func Required() Option { return func(c *config) { c.required = true } }

// WithMaxKeyLen bounds the key's length in bytes; a longer key, or one with
// control or non-ASCII characters, gets VALIDATION_FAILED. Default:
// [DefaultMaxKeyLen] (255).
func WithMaxKeyLen(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxKeyLen = n
		}
	}
}

// WithPrincipal sets who a request acts for (the tenant, user or API key),
// which scopes keys: two principals with the same key string never share a
// record, and [DuplicateGuard] never compares calls of two principals.
// Default: a SHA-256 of the Authorization header, so requests with
// different credentials never share; services should pass their tenant id.
//
// A request whose principal is "" (by default: one without an
// Authorization header) is anonymous. Anonymous callers cannot be told
// apart, so by default a keyed anonymous request is refused with
// UNAUTHENTICATED (401) before anything is claimed or run, and
// DuplicateGuard lets anonymous calls through unguarded: one anonymous
// caller never gets another's response, nor a DUPLICATE_ACTION for
// another's call. [SharedAnonymousScope] opts in to one scope for all of
// them.
func WithPrincipal(f func(*http.Request) string) Option {
	return func(c *config) {
		if f != nil {
			c.principal = f
		}
	}
}

// SharedAnonymousScope puts every anonymous request (whose principal is "",
// see [WithPrincipal]) in one scope: their keys are honoured and
// [DuplicateGuard] compares their calls, so one anonymous caller's key
// replays to another who sends the same key and body. Use it only when all
// anonymous callers are one party, such as a single agent runtime behind a
// gateway that has authenticated it. Default: off, anonymous keyed requests
// are refused with UNAUTHENTICATED (401).
func SharedAnonymousScope() Option { return func(c *config) { c.sharedAnon = true } }

// WithTool sets which tool (endpoint) a request calls, which also scopes
// keys. Default: the route pattern, chi's (asked of the router when
// idempotency runs before chi routes) or Go 1.22 ServeMux's r.Pattern,
// else the URL path. The name the agent reads in an error is the toolerr
// middleware's (see middleware.WithToolName); this one only scopes keys.
func WithTool(f func(*http.Request) string) Option {
	return func(c *config) {
		if f != nil {
			c.tool = f
		}
	}
}

// WithFingerprint sets how a request is fingerprinted; a retry whose
// fingerprint differs from the first request's gets IDEMPOTENCY_KEY_REUSED.
// Default: SHA-256 (HMAC-SHA-256 with [WithFingerprintKey]) of the method, the tool, the request's path and query
// (so that /accounts/1 and /accounts/2 of one route pattern never merge)
// and the body, in RFC 8785 canonical form when it is JSON and declared
// JSON or undeclared (so key order and whitespace do not matter), else as
// sent.
func WithFingerprint(f func(r *http.Request, body []byte) string) Option {
	return func(c *config) {
		if f != nil {
			c.fingerprint = f
		}
	}
}

// WithRetention sets how long a completed response is replayed. It is
// advertised in the Idempotency-Retention response header, in seconds.
// Default: [DefaultRetention] (24 h).
func WithRetention(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.retention = d
		}
	}
}

// WithLease sets how long a running request holds its key: if it crashes,
// a retry may claim the key once the lease lapses, and the crashed run can
// no longer store its result (fencing). Set it above the handler's
// timeout. Default: [DefaultLease] (1 min).
func WithLease(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.lease = d
		}
	}
}

// WithWait makes a retry that finds its key in flight wait up to d for the
// first request to finish, then replay its response, instead of getting
// IDEMPOTENCY_IN_PROGRESS at once. Default: 0, no waiting.
func WithWait(d time.Duration) Option {
	return func(c *config) { c.wait = max(d, 0) }
}

// StoreServerErrors stores and replays responses of 500 and above too.
// Default: off: a 5xx, like a 408, 409, 425 or 429, releases the key, so a
// retry runs again (the failure may have been passing).
func StoreServerErrors() Option { return func(c *config) { c.storeFailures = true } }

// WithReplayHeaders sets the response headers a replay repeats. Default:
// [DefaultReplayHeaders].
func WithReplayHeaders(names ...string) Option {
	return func(c *config) {
		c.replayHeaders = c.replayHeaders[:0]
		for _, n := range names {
			c.replayHeaders = append(c.replayHeaders, http.CanonicalHeaderKey(n))
		}
	}
}

// FailOpen lets requests through without idempotency when the store cannot
// be reached (or does not answer within [WithStoreTimeout]). A store that
// is full of requests in flight ([ErrStoreFull]) is refused even so: letting
// the request through would let its retry run it again. Default: fail
// closed, with IDEMPOTENCY_UNAVAILABLE (503, retryable).
func FailOpen() Option { return func(c *config) { c.failOpen = true } }

// WithMaxBody bounds the request body read for the fingerprint: a keyed
// request with a larger body gets PAYLOAD_TOO_LARGE from [Middleware], and
// [DuplicateGuard] lets a larger body through without comparing it. The
// handler always reads the whole body as sent. Default: [DefaultMaxBody]
// (1 MiB).
func WithMaxBody(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithMaxStored bounds the response body that can be stored; a larger
// response is answered normally, not stored, and the key released with a
// warning, so a retry runs again rather than replaying a truncated body.
// Default: [DefaultMaxStored] (1 MiB).
func WithMaxStored(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxStored = n
		}
	}
}

// WithRegistry sets the registry the middleware's errors are built from.
// Default: toolerr.Default().
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *config) {
		if r != nil {
			c.registry = r
		}
	}
}

// WithFormat sets the rendering of the middleware's errors. Default:
// toolerr.FormatProblem.
func WithFormat(f toolerr.Format) Option { return func(c *config) { c.format = f } }

// WithLogger sets the logger of store failures and unstorable responses.
// Default: slog.Default() when the middleware is built.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// defaultRedact is the secret stage of one default sanitizer, shared, which
// is safe for concurrent use and holds no state between calls: what a
// failure stored without a request scope passes through.
var defaultRedact = sync.OnceValue(func() func(string) string {
	return sanitize.New().Redact
})

// newConfig applies opts over the defaults.
func newConfig(opts []Option) config {
	c := config{
		header: DefaultHeader, maxKeyLen: DefaultMaxKeyLen, retention: DefaultRetention, lease: DefaultLease,
		maxBody: DefaultMaxBody, maxStored: DefaultMaxStored, replayHeaders: append([]string(nil), DefaultReplayHeaders...),
		principal: authorizationPrincipal, tool: routeTool, registry: toolerr.Default(), now: time.Now,
		window: DefaultWindow, storeTimeout: DefaultStoreTimeout, keyName: DefaultKeyName,
		thrashAfter: DefaultThrashAfter, thrashWindow: DefaultThrashWindow,
		redact: defaultRedact(),
	}
	c.fingerprint = func(r *http.Request, body []byte) string {
		return requestFingerprint(c.digestKey, r, c.tool(r), body)
	}
	for _, o := range opts {
		o(&c)
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	c.metrics = newCounters(c.meters, c.logger)
	return c
}

// authorizationPrincipal scopes keys by the request's credentials.
func authorizationPrincipal(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(auth))
	return hex.EncodeToString(sum[:])
}

// routeTool names the tool by its route pattern: chi's (asked of the
// router when the middleware runs before chi routes, mounted with
// Router.Use), else Go 1.22 ServeMux's r.Pattern, else the URL path.
func routeTool(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		p := rc.RoutePattern()
		if (p == "" || strings.HasSuffix(p, "*")) && rc.Routes != nil {
			path := r.URL.RawPath
			if path == "" {
				path = r.URL.Path
			}
			p = rc.Routes.Find(chi.NewRouteContext(), r.Method, path)
		}
		if p != "" {
			return p
		}
	}
	if r.Pattern != "" {
		return r.Pattern
	}
	return r.URL.Path
}
