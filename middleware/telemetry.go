package middleware

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// instrumentationName names the middleware's tracer and meter.
const instrumentationName = "github.com/toolerr/toolerr/middleware"

// telemetry records each error on the span, in the counters and in the log.
type telemetry struct {
	tracer   trace.Tracer
	errors   metric.Int64Counter
	unmapped metric.Int64Counter
	logger   *slog.Logger
	san      *sanitize.Sanitizer
}

// newTelemetry creates the instruments. An instrument the meter cannot
// create is replaced by a no-op one after a warning: telemetry never stops
// a request.
func newTelemetry(cfg config) *telemetry {
	meter := cfg.meters.Meter(instrumentationName)
	t := &telemetry{
		tracer: cfg.tracers.Tracer(instrumentationName),
		logger: cfg.logger,
		san:    cfg.sanitizer,
	}
	var err error
	t.errors, err = meter.Int64Counter("toolerr.errors", metric.WithUnit("{error}"),
		metric.WithDescription("Errors returned to tool callers, by code, category, tool and vendor."))
	if err != nil || t.errors == nil {
		cfg.logger.Warn("toolerr: cannot create counter toolerr.errors", slog.Any("error", err))
		t.errors = noop.Int64Counter{}
	}
	t.unmapped, err = meter.Int64Counter("toolerr.upstream.unmapped", metric.WithUnit("{error}"),
		metric.WithDescription("Downstream failures no mapping table explained: a vendor code no table maps, or UPSTREAM_UNCLASSIFIED."))
	if err != nil || t.unmapped == nil {
		cfg.logger.Warn("toolerr: cannot create counter toolerr.upstream.unmapped", slog.Any("error", err))
		t.unmapped = noop.Int64Counter{}
	}
	return t
}

// record puts e on the span, the toolerr.errors counter and the log. When
// the request has no span at all (no instrumentation) it starts a short
// "toolerr.error" span, a child of an incoming traceparent, so the error is
// in a trace; the returned error then carries that trace's id. A span that
// exists but was sampled out is left so. status is the status the
// client got, or 0 when it got none (a hijacked connection).
func (t *telemetry) record(r *http.Request, e *toolerr.Error, status int, p *panicInfo) *toolerr.Error {
	ctx := r.Context()
	span := trace.SpanFromContext(ctx)
	if !span.SpanContext().IsValid() { // no instrumentation; a sampled-out span is respected
		parent := propagation.TraceContext{}.Extract(ctx, propagation.HeaderCarrier(r.Header))
		_, span = t.tracer.Start(parent, "toolerr.error", trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		if sc := span.SpanContext(); span.IsRecording() && sc.HasTraceID() && e.TraceID == "" {
			e = e.WithTraceID(sc.TraceID().String())
		}
	}
	vendor := ""
	if e.Upstream != nil {
		vendor = e.Upstream.Vendor
	}
	t.onSpan(span, e, status, p)
	t.errors.Add(ctx, 1, metric.WithAttributes(
		attribute.String("error.type", e.Code),
		attribute.String("toolerr.category", string(e.Category)),
		attribute.String("toolerr.tool", e.Tool),
		attribute.String("toolerr.vendor", vendor),
		attribute.Int("http.response.status_code", status),
	))
	t.log(r, e, status, p)
	return e
}

// onSpan records e on the server span by the HTTP semantic conventions,
// which reserve error.type and the Error status of a server span for
// server errors: a 4xx is the caller's mistake and leaves them unset.
//
//   - Always: toolerr.code and toolerr.category, so 4xx calls can be
//     queried without counting as errors.
//   - For a 5xx, or an error the client never got (status 0): error.type
//     (the code), the span status Error, and one exception event with the
//     sanitized detail (and for a panic the redacted stack).
func (t *telemetry) onSpan(span trace.Span, e *toolerr.Error, status int, p *panicInfo) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(
		attribute.String("toolerr.code", e.Code),
		attribute.String("toolerr.category", string(e.Category)),
	)
	if status > 0 && status < 500 {
		return
	}
	span.SetAttributes(attribute.String("error.type", e.Code))
	attrs := []attribute.KeyValue{
		attribute.String("exception.type", e.Code),
		attribute.String("exception.message", e.Detail),
	}
	if p != nil {
		attrs = append(attrs, attribute.String("exception.stacktrace",
			t.san.Redact(fmt.Sprintf("panic: %v\n\n%s", p.value, p.stack))))
	}
	span.AddEvent("exception", trace.WithAttributes(attrs...))
	span.SetStatus(codes.Error, e.Code)
}

// log writes one record for e at a level fitting its category.
func (t *telemetry) log(r *http.Request, e *toolerr.Error, status int, p *panicInfo) {
	ctx := r.Context()
	level := e.Category.LogLevel()
	if !t.logger.Enabled(ctx, level) {
		return
	}
	requestID, traceID := e.RequestID, e.TraceID
	if requestID == "" {
		requestID = toolerr.RequestID(ctx)
	}
	if traceID == "" {
		traceID = toolerr.TraceID(ctx)
	}
	attrs := make([]slog.Attr, 0, 14)
	attrs = append(attrs,
		slog.String("code", e.Code),
		slog.String("category", string(e.Category)),
		slog.Int("status", status),
		slog.Bool("retryable", e.Retryable),
		slog.String("request_id", requestID),
		slog.String("trace_id", traceID),
		slog.String("tool", e.Tool),
		slog.String("method", r.Method),
		slog.String("path", t.san.Redact(r.URL.Path)),
		slog.String("detail", e.Detail),
	)
	if u := e.Upstream; u != nil {
		attrs = append(attrs, slog.Group("upstream",
			slog.String("vendor", u.Vendor), slog.Int("status", u.Status),
			slog.String("code", u.Code), slog.String("request_id", u.RequestID)))
	}
	if cause := e.Unwrap(); cause != nil {
		attrs = append(attrs, slog.String("cause", t.san.Redact(cause.Error())))
	}
	if p != nil {
		attrs = append(attrs, slog.String("stack", t.san.Redact(string(p.stack))))
	}
	t.logger.LogAttrs(ctx, level, "toolerr: tool call failed", attrs...)
}

// reportUnmapped counts and logs, loudly, a downstream failure that no mapping
// explained, so a translator that is out of date shows.
func (t *telemetry) reportUnmapped(ctx context.Context, o classify.Outcome, code string) {
	vendor := o.Vendor
	if vendor == "" {
		vendor = "unknown"
	}
	vendor = t.san.CleanText(vendor)
	vendorCode := t.san.CleanText(o.VendorCode)
	t.unmapped.Add(ctx, 1, metric.WithAttributes(
		attribute.String("toolerr.vendor", vendor),
		attribute.String("error.type", code),
		attribute.String("toolerr.upstream.status", strconv.Itoa(o.Status)),
	))
	t.logger.LogAttrs(ctx, slog.LevelWarn, "toolerr: downstream failure not mapped; update the translator",
		slog.String("vendor", vendor),
		slog.Int("upstream_status", o.Status),
		slog.String("vendor_code", vendorCode),
		slog.String("code", code),
		slog.String("request_id", toolerr.RequestID(ctx)),
	)
}
