package middleware

import (
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/fallbackdecl"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
	"github.com/toolerr/toolerr/translate"
)

// DefaultBodyCap is how much of a raw error response is buffered for
// translation; the rest is drained and dropped.
const DefaultBodyCap = 64 << 10

// RequestIDPolicy says where the request id of a request comes from.
type RequestIDPolicy int

const (
	// TrustIncoming takes chi's request id (middleware.GetReqID) when chi's
	// RequestID middleware ran, else a valid incoming X-Request-Id, else a
	// new random id. An invalid incoming id (too long, CR/LF, quotes,
	// non-ASCII) is replaced, never echoed. The default.
	TrustIncoming RequestIDPolicy = iota
	// GenerateAlways ignores incoming ids and always generates one: for
	// services reached directly by untrusted clients that must not choose
	// the ids of the service's logs.
	GenerateAlways
)

// Option configures the middleware built by [New].
type Option func(*config)

type config struct {
	registry   *toolerr.Registry
	classifier *classify.Classifier
	translator Translator
	// translatorSet: WithTranslator was given, nil included.
	translatorSet bool
	sanitizer     *sanitize.Sanitizer
	format        toolerr.Format
	bodyCap       int
	logger        *slog.Logger
	tracers       trace.TracerProvider
	meters        metric.MeterProvider
	metrics       *toolmetrics.Set // built from meters by newConfig
	samples       *unmapped.Sampler
	toolName      func(*http.Request) string
	idPolicy      RequestIDPolicy
	mappers       []classify.ErrorMapper
	// toolRoutes lists the service's routes (toolroutes.go); toolRoutesSet:
	// WithToolRoutes was given, nil included.
	toolRoutes    func() []string
	toolRoutesSet bool
	// fallbacks are the WithFallbacks declarations (fallback.go).
	fallbacks []fallbackdecl.Decl
}

// WithRegistry sets the registry errors are built from. Default:
// [toolerr.Default]. Services that register their own codes pass
// toolerr.NewRegistry(toolerr.Default()) with their codes added.
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *config) {
		if r != nil {
			c.registry = r
		}
	}
}

// WithClassifier sets the classifier of raw error responses and returned Go
// errors. Default: classify.New over the registry, with the sanitizer as its
// message filter. A classifier passed here keeps its own message filter:
// build it with classify.WithMessageFilter(s.CleanText) to have vendor text
// cleaned by this sanitizer rather than the classifier's default one.
// The middleware counts and logs unmapped classifications itself, whatever
// the classifier's observer.
func WithClassifier(c *classify.Classifier) Option {
	return func(cfg *config) {
		if c != nil {
			cfg.classifier = c
		}
	}
}

// WithErrorMappers adds mappers of the typed errors handlers get back from
// SDKs, gRPC calls and database drivers (see classify.ErrorMapper) to the
// classifier the middleware builds. Default: the built-in mappers only
// (database/sql, SQLSTATE, AWS smithy and Redis errors). A classifier passed with
// [WithClassifier] keeps its own: build it with classify.WithErrorMappers.
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *config) { c.mappers = append(c.mappers, ms...) }
}

// WithTranslator sets the translator of captured raw error responses.
// Default: a translate.Set of the built-in gateway, vendor and generic
// translators over the middleware's classifier, whose vendor code tables it
// registers there. A nil t leaves the status and headers alone to decide.
func WithTranslator(t Translator) Option {
	return func(c *config) { c.translator, c.translatorSet = t, true }
}

// WithSanitizer sets the sanitizer of every text that reaches a body, a log
// record or a span. Default: sanitize.New().
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *config) {
		if s != nil {
			c.sanitizer = s
		}
	}
}

// WithFormat sets the rendering of errors whose request does not ask for
// application/problem+json. Default: [toolerr.FormatProblem].
func WithFormat(f toolerr.Format) Option {
	return func(c *config) { c.format = f }
}

// WithBodyCap sets how many bytes of a raw error response are buffered for
// translation; past it the rest is drained and dropped, never held.
// Default: [DefaultBodyCap] (64 KiB). Values below 1 keep the default.
func WithBodyCap(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.bodyCap = n
		}
	}
}

// WithLogger sets the logger of the one record written per error. Default:
// slog.Default() as it is when New runs.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithTracerProvider sets the provider of the tracer named
// "github.com/toolerr/toolerr/middleware". Errors are recorded on the span
// already in the request context (from otelhttp or other instrumentation);
// only when a request has no span at all does the middleware start a short
// "toolerr.error" span from this provider, so that the error is in a trace.
// Default: otel.GetTracerProvider().
func WithTracerProvider(p trace.TracerProvider) Option {
	return func(c *config) {
		if p != nil {
			c.tracers = p
		}
	}
}

// WithMeterProvider sets the provider of the middleware's instruments,
// listed in docs/observability.md: toolerr.tool.calls, toolerr.errors,
// toolerr.upstream.unmapped, toolerr.observations.truncated and
// toolerr.redactions. Default: otel.GetMeterProvider().
func WithMeterProvider(p metric.MeterProvider) Option {
	return func(c *config) {
		if p != nil {
			c.meters = p
		}
	}
}

// WithUnmappedSamples offers every downstream response no mapping
// explained (a captured vendor response, or one a handler's outbound call
// read with translate.Response under the request's context) to s, which
// keeps a bounded, rate-limited, sanitized sample of it and logs it:
// mount s (an http.Handler) behind the service's own auth to list the
// recent samples (docs/unmapped.md). Default: none, no sample is kept.
func WithUnmappedSamples(s *unmapped.Sampler) Option {
	return func(c *config) { c.samples = s }
}

// WithToolName sets how the tool name of a request is found when no [Tool]
// or [ToolFunc] adapter that ran names it; an empty result falls back to
// the default. Default: the name of the Tool adapter the request's route
// leads to, found without running it (chi's routes, or the ServeMux the
// middleware wraps), else the route pattern (chi's, or Go 1.22 ServeMux's
// r.Pattern without its method: "/tools/search_orders"), else none. The
// name goes into the error and the metrics, so it must have few distinct
// values: never a raw path.
func WithToolName(f func(*http.Request) string) Option {
	return func(c *config) {
		if f != nil {
			c.toolName = f
		}
	}
}

// WithRequestIDPolicy sets where request ids come from. Default:
// [TrustIncoming].
func WithRequestIDPolicy(p RequestIDPolicy) Option {
	return func(c *config) { c.idPolicy = p }
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) config {
	c := config{bodyCap: DefaultBodyCap}
	for _, o := range opts {
		o(&c)
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
	if c.tracers == nil {
		c.tracers = otel.GetTracerProvider()
	}
	if c.meters == nil {
		c.meters = otel.GetMeterProvider()
	}
	// The instruments exist before anything sanitizes: every redaction
	// the middleware's sanitizer makes is counted, by kind.
	c.metrics = toolmetrics.New(c.meters, instrumentationName, c.logger)
	c.sanitizer = c.sanitizer.Observed(c.metrics.Sanitized)
	if c.classifier == nil {
		c.classifier = classify.New(c.registry, classify.WithMessageFilter(c.sanitizer.CleanText),
			classify.WithErrorMappers(c.mappers...))
	}
	c.declareFallbacks() // fallback.go
	if !c.translatorSet {
		set, err := translate.NewSet(c.classifier)
		if err != nil {
			// A registry that does not extend toolerr.Default lacks codes
			// the built-in tables name.
			c.logger.Warn("toolerr: built-in translators unavailable; the status decides", slog.Any("error", err))
		} else {
			c.translator = set
		}
	}
	return c
}
