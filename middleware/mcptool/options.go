package mcptool

import (
	"log/slog"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/translate"
)

// Option configures [Wrap], [AddTool] and [Middleware].
type Option func(*config)

// config is the resolved configuration of one wrapper.
type config struct {
	registry   *toolerr.Registry
	classifier *classify.Classifier
	sanitizer  *sanitize.Sanitizer
	logger     *slog.Logger
	idempotent bool
	mappers    []classify.ErrorMapper
	tools      toolCache // Middleware's compiled input schemas
}

// WithRegistry sets the registry errors are built from (INTERNAL_ERROR and
// the classifier's codes). Default: [toolerr.Default]. Services that
// register their own codes pass toolerr.NewRegistry(toolerr.Default()) with
// their codes added.
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *config) {
		if r != nil {
			c.registry = r
		}
	}
}

// WithClassifier sets the classifier of returned Go errors (timeouts,
// connection failures, cancellation). Default: classify.New over the
// registry, with the sanitizer's CleanText as its message filter.
func WithClassifier(cl *classify.Classifier) Option {
	return func(c *config) {
		if cl != nil {
			c.classifier = cl
		}
	}
}

// WithSanitizer sets the sanitizer of the text members that reach the
// client (detail, hint, human hint, suggestions) and of what is logged.
// Default: sanitize.New().
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *config) {
		if s != nil {
			c.sanitizer = s
		}
	}
}

// WithErrorMappers adds mappers of the typed errors handlers get back from
// SDKs, gRPC calls and database drivers (see classify.ErrorMapper) to the
// classifier the wrapper builds. Default: the built-in mappers only. A
// classifier passed with [WithClassifier] keeps its own.
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *config) { c.mappers = append(c.mappers, ms...) }
}

// WithLogger sets the logger of the one record written per failure,
// including a panic's value and stack. Default: slog.Default() as it is
// when the wrapper is built.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithIdempotent says whether the tool may be called again with the same
// arguments without doing its work twice, as MCP's idempotentHint
// annotation does. The classifier makes a timeout retryable only for
// idempotent calls. Default: false, as for a POST.
func WithIdempotent(idempotent bool) Option {
	return func(c *config) { c.idempotent = idempotent }
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.registry == nil {
		c.registry = toolerr.Default()
	}
	if c.sanitizer == nil {
		c.sanitizer = sanitize.New()
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	if c.classifier == nil {
		c.classifier = classify.New(c.registry, classify.WithMessageFilter(c.sanitizer.CleanText),
			classify.WithErrorMappers(c.mappers...))
		// The built-in vendor code tables, so that an SDK's typed error
		// (an AWS throttle, which AWS answers with 400) is read by its
		// vendor's table, as under the middleware.
		_, _ = translate.NewSet(c.classifier)
	}
	return c
}

// method is the HTTP method whose idempotency the classifier assumes for a
// tool call.
func (c *config) method() string {
	if c.idempotent {
		return http.MethodPut
	}
	return http.MethodPost
}
