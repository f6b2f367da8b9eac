package mcptool

import (
	"log/slog"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/mcpcore"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
)

// Option configures [Wrap], [AddTool] and [Middleware]. The options are
// the same in every MCP adapter of toolerr (module
// middleware/toolerrmcpgo has them too).
type Option = mcpcore.Option

// WithRegistry sets the registry errors are built from (INTERNAL_ERROR and
// the classifier's codes). Default: [toolerr.Default]. Services that
// register their own codes pass toolerr.NewRegistry(toolerr.Default()) with
// their codes added.
func WithRegistry(r *toolerr.Registry) Option { return mcpcore.WithRegistry(r) }

// WithClassifier sets the classifier of returned Go errors (timeouts,
// connection failures, cancellation). Default: classify.New over the
// registry, with the sanitizer's CleanText as its message filter.
func WithClassifier(cl *classify.Classifier) Option { return mcpcore.WithClassifier(cl) }

// WithSanitizer sets the sanitizer of the text members that reach the
// client (detail, hint, human hint, suggestions) and of what is logged.
// Default: sanitize.New().
func WithSanitizer(s *sanitize.Sanitizer) Option { return mcpcore.WithSanitizer(s) }

// WithErrorMappers adds mappers of the typed errors handlers get back from
// SDKs, gRPC calls and database drivers (see classify.ErrorMapper) to the
// classifier the wrapper builds. Default: the built-in mappers only. A
// classifier passed with [WithClassifier] keeps its own.
func WithErrorMappers(ms ...classify.ErrorMapper) Option { return mcpcore.WithErrorMappers(ms...) }

// WithLogger sets the logger of the one record written per failure,
// including a panic's value and stack. Default: slog.Default() as it is
// when the wrapper is built.
func WithLogger(l *slog.Logger) Option { return mcpcore.WithLogger(l) }

// WithIdempotent says whether the tool may be called again with the same
// arguments without doing its work twice, as MCP's idempotentHint
// annotation does. The classifier makes a timeout retryable only for
// idempotent calls. Default: false, as for a POST. [AddTool] and
// [Middleware] also take a tool as idempotent when its annotations say
// idempotentHint or readOnlyHint.
func WithIdempotent(idempotent bool) Option { return mcpcore.WithIdempotent(idempotent) }

// WithTracerProvider sets the tracer provider of the "toolerr.error" span
// recorded for every failed call, a child of the span of the request that
// carried the call. Default: the global provider (otel.GetTracerProvider)
// when the wrapper is built.
func WithTracerProvider(tp trace.TracerProvider) Option { return mcpcore.WithTracerProvider(tp) }

// WithMeterProvider sets the meter provider of the toolerr.errors counter,
// which counts every failed call by code, category, tool and vendor.
// Default: the global provider (otel.GetMeterProvider) when the wrapper is
// built.
func WithMeterProvider(mp metric.MeterProvider) Option { return mcpcore.WithMeterProvider(mp) }

// WithUnmappedSamples offers every unmapped response a tool's outbound
// call read (translate.Response under the call's context) to s, a
// bounded, rate-limited sampler of sanitized samples an operator lists
// through its http.Handler (docs/unmapped.md). Default: none.
func WithUnmappedSamples(s *unmapped.Sampler) Option { return mcpcore.WithUnmappedSamples(s) }

// WithUnknownToolResult makes [Middleware] answer a call of a tool the
// server does not have with a TOOL_NOT_FOUND tool result instead of the
// protocol error MCP prescribes, which many agent runtimes never show the
// model. The result names the nearest tools as allowed_values, and the
// one most plausibly meant as suggested_value when exactly one is; a call
// is never redirected to it. Default: off.
func WithUnknownToolResult(on bool) Option { return mcpcore.WithUnknownToolResult(on) }

// WithFallbacks declares the fallbacks of the tool that [AddTool] or
// [Wrap] registers (the tool's name is t.Name, or Wrap's name): the
// alternative tools an agent may call when it fails, each with the
// failure categories it covers and whether it mutates (see
// toolerr.Fallback). A failure of a covered category then carries
// use_fallback:<fallback> in its actions and a hint naming it, in the
// result's problem object and its text, but for the guard of
// toolerr.Registry.OfferFallbacks: a mutating fallback is never offered
// after an auth, permission or policy failure, nor after a timeout or a
// failure that may have run of a tool that is neither read-only nor
// idempotent (readOnlyHint, idempotentHint, [WithIdempotent]).
//
// They are declared in the registry of [WithRegistry], whose exports then
// list them, or, without one, in a registry of the tool's own that extends
// the built-in one (which never changes). A declaration the registry
// rejects is logged as a warning and declares nothing. [Middleware] has no
// tool of its own and ignores it. Default: none.
func WithFallbacks(fbs ...toolerr.Fallback) Option { return mcpcore.WithFallbacks("", fbs...) }

// config is the resolved configuration of one wrapper or middleware.
type config struct {
	*mcpcore.Core
}

// newConfig applies opts over the defaults.
func newConfig(opts []Option) *config {
	return &config{Core: mcpcore.New(opts...)}
}
