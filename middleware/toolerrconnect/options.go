package toolerrconnect

import (
	"log/slog"

	"connectrpc.com/connect"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/translate"
)

// Option configures the interceptor built by [NewInterceptor].
type Option func(*config)

type config struct {
	registry   *toolerr.Registry
	classifier *classify.Classifier
	sanitizer  *sanitize.Sanitizer
	logger     *slog.Logger
	toolName   func(connect.Spec) string
	mappers    []classify.ErrorMapper
	meters     metric.MeterProvider
	metrics    *toolmetrics.Set    // built from meters by newConfig
	fallbacks  []fallbackdecl.Decl // fallback.go
}

// WithRegistry sets the registry errors are built from. Default:
// toolerr.Default(). Services with codes of their own pass
// toolerr.NewRegistry(toolerr.Default()) with their codes added.
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *config) {
		if r != nil {
			c.registry = r
		}
	}
}

// WithClassifier sets the classifier of the Go errors handlers return and
// of the downstream *connect.Error values they pass on. Default:
// classify.New over the registry, with the sanitizer as its message
// filter, [Mapper] and the mappers of [WithErrorMappers], and the code
// tables of package translate registered. The [Vendor] code table is
// registered on a classifier passed here too.
func WithClassifier(c *classify.Classifier) Option {
	return func(cfg *config) {
		if c != nil {
			cfg.classifier = c
		}
	}
}

// WithErrorMappers adds mappers of the typed errors handlers get back from
// SDKs and drivers (classify.ErrorMapper) to the classifier the
// interceptor builds. Default: [Mapper] and the classifier's built-in
// mappers. A classifier given with [WithClassifier] keeps its own.
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *config) { c.mappers = append(c.mappers, ms...) }
}

// WithSanitizer sets the sanitizer every text of an error passes through
// before it reaches the client, a log record or a span. Default:
// sanitize.New(), the HTTP middleware's default.
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *config) {
		if s != nil {
			c.sanitizer = s
		}
	}
}

// WithLogger sets the logger of the one record written per error, at the
// level of the error's category (toolerr.Category.LogLevel). Default:
// slog.Default() as it is when NewInterceptor runs.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithToolName sets the tool name of a call, from its Spec; an empty
// result falls back to the default. Default: the procedure,
// spec.Procedure ("/acme.orders.v1.OrderService/GetOrder"). A
// *toolerr.Error that names its tool keeps it.
func WithToolName(f func(connect.Spec) string) Option {
	return func(c *config) {
		if f != nil {
			c.toolName = f
		}
	}
}

// WithMeterProvider sets the provider of the interceptor's instruments,
// the HTTP middleware's (docs/observability.md), so one dashboard counts
// both: toolerr.tool.calls (by gen_ai.tool.name, the procedure or the
// WithToolName name), toolerr.errors (error.type, toolerr.category,
// gen_ai.tool.name, toolerr.vendor and rpc.response.status_code, the
// Connect code), toolerr.observations.truncated and toolerr.redactions.
// Default: otel.GetMeterProvider() as it is when NewInterceptor runs.
func WithMeterProvider(p metric.MeterProvider) Option {
	return func(c *config) {
		if p != nil {
			c.meters = p
		}
	}
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
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
	c.declareFallbacks() // fallback.go
	if c.meters == nil {
		c.meters = otel.GetMeterProvider()
	}
	// The instruments exist before anything sanitizes: every redaction
	// the interceptor's sanitizer makes is counted, by kind.
	c.metrics = toolmetrics.New(c.meters, instrumentationName, c.logger)
	c.sanitizer = c.sanitizer.Observed(c.metrics.Sanitized)
	if c.classifier == nil {
		ms := append([]classify.ErrorMapper{Mapper()}, c.mappers...)
		c.classifier = classify.New(c.registry, classify.WithMessageFilter(c.sanitizer.CleanText),
			classify.WithErrorMappers(ms...))
		if _, err := translate.NewSet(c.classifier); err != nil {
			// A registry that does not extend toolerr.Default lacks codes
			// the built-in tables name.
			c.logger.Warn("toolerrconnect: vendor code tables unavailable", slog.Any("error", err))
		}
	} else if err := c.classifier.RegisterVendor(Vendor, vendorTable()); err != nil {
		c.logger.Warn("toolerrconnect: Connect code table unavailable; the classifier's rules decide", slog.Any("error", err))
	}
	return c
}
