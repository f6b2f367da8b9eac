package unmapped

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// Defaults of a [Sampler].
const (
	// DefaultCapacity is how many recent samples the ring keeps.
	DefaultCapacity = 64
	// DefaultPairInterval is the least time between two samples of one
	// vendor and status pair.
	DefaultPairInterval = time.Minute
	// DefaultRate is how many samples a second are taken over all pairs
	// together; as many may be taken at once after a quiet second.
	DefaultRate = 10
	// DefaultBodyBytes is the longest body a sample keeps, in bytes, after
	// sanitizing.
	DefaultBodyBytes = 512
	// MaxPairs is how many vendor and status pairs are remembered; a new
	// pair beyond it makes the pair remembered longest be forgotten.
	MaxPairs = 256
	// MaxRead is how much of a body (and of a header value, vendor name or
	// vendor code, each at its own smaller bound) is read and sanitized;
	// the rest is never looked at, and the word the cut runs through is
	// dropped.
	MaxRead = 64 << 10
	// maxCapacity bounds WithCapacity.
	maxCapacity = 4096
)

// Option configures a [Sampler].
type Option func(*config)

type config struct {
	capacity  int
	interval  time.Duration
	rate      int
	bodyBytes int
	headers   []string
	san       *sanitize.Sanitizer
	logger    *slog.Logger
	now       func() time.Time
}

// WithCapacity sets how many recent samples are kept for
// [Sampler.Samples] and the handler; older ones are dropped. Default:
// [DefaultCapacity] (64). Values below 1 keep the default; values above
// 4096 are cut to 4096.
func WithCapacity(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.capacity = min(n, maxCapacity)
		}
	}
}

// WithPairInterval sets the least time between two samples of one vendor
// and status pair; the responses of the pair in between are counted as
// suppressed. Default: [DefaultPairInterval] (1 minute). Values of 0 or
// less keep the default.
func WithPairInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.interval = d
		}
	}
}

// WithRate sets how many samples a second are taken over all pairs
// together (a token bucket holding as many tokens); a response of a pair
// that is due but finds no token is counted as suppressed. Default:
// [DefaultRate] (10). Values below 1 keep the default.
func WithRate(perSecond int) Option {
	return func(c *config) {
		if perSecond > 0 {
			c.rate = perSecond
		}
	}
}

// WithBodyBytes sets the longest body a sample keeps, in bytes, after
// sanitizing; a longer one is cut at a word (or, for one long word, a
// rune) and ends with "…". The sanitizer's own output cap (2048 bytes for
// sanitize.New()) bounds it too. Default: [DefaultBodyBytes] (512). Values
// below 16 keep the default; values above [MaxRead] are cut to it.
func WithBodyBytes(n int) Option {
	return func(c *config) {
		if n >= 16 {
			c.bodyBytes = min(n, MaxRead)
		}
	}
}

// WithHeaders adds header names to the allow-list of headers a sample
// keeps. Default allow-list: Content-Type, Content-Length, Retry-After,
// Server, Via, Date, CF-Ray, X-Cache, X-Request-Id, Request-Id,
// X-Amzn-RequestId, X-Amz-Request-Id, X-GitHub-Request-Id and
// x-ms-request-id. The headers that carry credentials (Authorization,
// Proxy-Authorization, Cookie, Set-Cookie, WWW-Authenticate,
// Proxy-Authenticate) are never kept, even when named here. Values are
// sanitized like the body.
func WithHeaders(names ...string) Option {
	return func(c *config) { c.headers = append(c.headers, names...) }
}

// WithSanitizer sets the sanitizer every text of a sample goes through.
// Default: sanitize.New(). A nil sanitizer keeps the default.
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *config) {
		if s != nil {
			c.san = s
		}
	}
}

// WithLogger sets the logger a sample is written to, as one Warn record.
// Default: slog.Default() when [New] runs. A nil logger keeps the default.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithClock sets the clock the rate limits and the samples' times read,
// for tests. Default: time.Now. A nil clock keeps the default.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// defaultHeaders is the default allow-list: facts about the response and
// the vendors' request ids, nothing that carries a credential or a
// cookie.
var defaultHeaders = []string{
	"Content-Type", "Content-Length", "Retry-After", "Server", "Via", "Date", "CF-Ray", "X-Cache",
	"X-Request-Id", "Request-Id", "X-Amzn-RequestId", "X-Amz-Request-Id", "X-GitHub-Request-Id", "x-ms-request-id",
}

// credentialHeaders are never kept, whatever WithHeaders says.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "Set-Cookie2",
	"WWW-Authenticate", "Proxy-Authenticate",
}

// allowList returns the canonical names of the headers a sample keeps, in
// order and without duplicates.
func allowList(extra []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, n := range credentialHeaders {
		seen[http.CanonicalHeaderKey(n)] = true
	}
	for _, n := range append(append([]string(nil), defaultHeaders...), extra...) {
		k := http.CanonicalHeaderKey(n)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		names = append(names, k)
	}
	return names
}
