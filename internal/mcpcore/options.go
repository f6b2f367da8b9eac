package mcpcore

import (
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
	"github.com/toolerr/toolerr/translate"
)

// Option configures a [Core].
type Option func(*Core)

// WithRegistry sets the registry errors are built from. Default:
// [toolerr.Default].
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *Core) {
		if r != nil {
			c.Registry = r
		}
	}
}

// WithClassifier sets the classifier of returned Go errors. Default:
// classify.New over the registry, with the sanitizer's CleanText as its
// message filter and the built-in vendor tables.
func WithClassifier(cl *classify.Classifier) Option {
	return func(c *Core) {
		if cl != nil {
			c.Classifier = cl
		}
	}
}

// WithUnmappedSamples offers every unmapped response a tool's outbound
// call read (translate.Response under the call's context) to s. Default:
// none.
func WithUnmappedSamples(s *unmapped.Sampler) Option {
	return func(c *Core) { c.samples = s }
}

// WithSanitizer sets the sanitizer of what reaches the client and the log.
// Default: sanitize.New().
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *Core) {
		if s != nil {
			c.Sanitizer = s
		}
	}
}

// WithErrorMappers adds mappers of typed SDK errors to the classifier the
// core builds; a classifier passed with [WithClassifier] keeps its own.
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *Core) { c.mappers = append(c.mappers, ms...) }
}

// WithLogger sets the logger of the one record written per failure.
// Default: slog.Default() as it is when the core is built.
func WithLogger(l *slog.Logger) Option {
	return func(c *Core) {
		if l != nil {
			c.Logger = l
		}
	}
}

// WithIdempotent says whether a tool may be called again with the same
// arguments without doing its work twice. Default: false.
func WithIdempotent(idempotent bool) Option {
	return func(c *Core) { c.Idempotent = idempotent }
}

// WithTracerProvider sets the provider of the tracer that records failed
// calls. Default: otel.GetTracerProvider() when the core is built.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *Core) {
		if tp != nil {
			c.tracers = tp
		}
	}
}

// WithMeterProvider sets the provider of the meter of the toolerr.errors
// counter. Default: otel.GetMeterProvider() when the core is built.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *Core) {
		if mp != nil {
			c.meters = mp
		}
	}
}

// WithUnknownToolResult makes a call of a tool the server does not have a
// TOOL_NOT_FOUND tool result (naming the nearest tools) instead of the
// protocol error MCP prescribes. Default: off.
func WithUnknownToolResult(on bool) Option {
	return func(c *Core) { c.UnknownToolResult = on }
}

// Core is one adapter's configuration and state. Safe for concurrent use.
type Core struct {
	// Registry is the registry errors are built from.
	Registry *toolerr.Registry
	// Classifier classifies returned Go errors.
	Classifier *classify.Classifier
	// Sanitizer cleans what reaches the client and the log.
	Sanitizer *sanitize.Sanitizer
	// Logger receives one record per failure.
	Logger *slog.Logger
	// Idempotent is the default idempotency of a tool without annotations.
	Idempotent bool
	// UnknownToolResult answers an unknown tool with a tool result.
	UnknownToolResult bool

	mappers []classify.ErrorMapper
	tracers trace.TracerProvider
	meters  metric.MeterProvider
	tel     *telemetry // telemetry.go
	// hooks are the hooks of every call's request scope (ids.go): only
	// Unmapped, so that an outbound call's unmapped response is counted,
	// logged and sampled.
	hooks   reqscope.Hooks
	samples *unmapped.Sampler // WithUnmappedSamples, or nil
	schemas schemaCache       // arguments.go

	fallbacks []fallbackdecl.Decl // fallback.go

	onceStore idempotency.Store // once.go
	onceOpts  []idempotency.Option
	once      *idempotency.ToolCalls

	thrashCounter idempotency.FailureCounter // thrash.go
	thrashOpts    []idempotency.Option
	thrash        *idempotency.ThrashCalls
}

// New applies opts over the defaults.
func New(opts ...Option) *Core {
	c := &Core{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.Registry == nil {
		c.Registry = toolerr.Default()
	}
	if c.Sanitizer == nil {
		c.Sanitizer = sanitize.New()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.tracers == nil {
		c.tracers = otel.GetTracerProvider()
	}
	if c.meters == nil {
		c.meters = otel.GetMeterProvider()
	}
	// The instruments exist before anything sanitizes: every redaction
	// the core's sanitizer makes is counted, by kind.
	metrics := toolmetrics.New(c.meters, instrumentationName, c.Logger)
	c.Sanitizer = c.Sanitizer.Observed(metrics.Sanitized)
	c.declareFallbacks() // fallback.go
	if c.Classifier == nil {
		c.Classifier = classify.New(c.Registry, classify.WithMessageFilter(c.Sanitizer.CleanText),
			classify.WithErrorMappers(c.mappers...))
		// The built-in vendor code tables, so that an SDK's typed error
		// (an AWS throttle, which AWS answers with 400) is read by its
		// vendor's table, as under the middleware.
		_, _ = translate.NewSet(c.Classifier)
	}
	c.tel = newTelemetry(c.tracers, metrics, c.Logger, c.Sanitizer, c.samples)
	c.hooks = reqscope.Hooks{Unmapped: c.tel.unmapped.Report}
	c.newOnce()
	c.newThrash()
	return c
}

// Method is the HTTP method whose idempotency the classifier assumes for a
// call of a tool that is idempotent or not.
func Method(idempotent bool) string {
	if idempotent {
		return http.MethodPut
	}
	return http.MethodPost
}
