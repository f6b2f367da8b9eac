package middleware

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/internal/unreadsdk"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// instrumentationName names the middleware's tracer and meter.
const instrumentationName = "github.com/toolerr/toolerr/middleware"

// telemetry records each error on the span, in the counters and in the log.
type telemetry struct {
	tracer  trace.Tracer
	metrics *toolmetrics.Set
	logger  *slog.Logger
	san     *sanitize.Sanitizer
	unread  *unreadsdk.Reporter // SDK errors nothing read
	// unmapped counts, samples and logs a response no mapping explained.
	unmapped *toolmetrics.UnmappedReporter
	// tracing reports whether a span started now could record; see
	// tracingProbe.
	tracing func() bool
}

// newTelemetry creates the instruments (package toolmetrics); one the
// meter cannot create is a no-op after a warning: telemetry never stops a
// request.
func newTelemetry(cfg config) *telemetry {
	t := &telemetry{
		tracer:  cfg.tracers.Tracer(instrumentationName),
		metrics: cfg.metrics,
		logger:  cfg.logger,
		san:     cfg.sanitizer,
	}
	t.unmapped = &toolmetrics.UnmappedReporter{Metrics: cfg.metrics, Sanitizer: cfg.sanitizer,
		Samples: cfg.samples, Logger: cfg.logger}
	t.tracing = tracingProbe(cfg.tracers)
	t.unread = unreadsdk.New(t.metrics, cfg.logger)
	return t
}

// record puts e on the request's error span (see [telemetry.traced]), the
// toolerr.errors counter and the log, and returns e with the trace id of
// the span when it started one. status is the status the client got, or
// 0 when it got none (a hijacked connection). e must be sanitized.
func (t *telemetry) record(rec *recorder, r *http.Request, e *toolerr.Error, status int, p *panicInfo) *toolerr.Error {
	e = t.traced(rec, r, e)
	span := rec.fail.span
	vendor := ""
	if e.Upstream != nil {
		vendor = e.Upstream.Vendor
	}
	t.onSpan(span, e, status, p)
	var result attribute.KeyValue
	if status > 0 {
		result = toolmetrics.KeyHTTPStatus.Int(status)
	}
	t.metrics.Error(r.Context(), toolmetrics.ErrorAttrs{Code: e.Code, Category: string(e.Category),
		Tool: e.Tool, Vendor: vendor, Result: result})
	f := rec.failure()
	f.counted, f.tool = true, e.Tool
	t.log(r, e, status, p)
	return e
}

// traced returns e with the trace id of the span its error is recorded
// on, when the middleware started that span ([telemetry.trace]) and e has
// none.
func (t *telemetry) traced(rec *recorder, r *http.Request, e *toolerr.Error) *toolerr.Error {
	if id := t.trace(rec, r); id != "" && e.TraceID == "" {
		e = e.WithTraceID(id)
	}
	return e
}

// trace finds the span the request's error is recorded on and returns the
// trace id of the span when the middleware started it, else "". When the
// request has no span at all (no instrumentation) it starts a short
// "toolerr.error" span, a child of an incoming traceparent, so the error is
// in a trace; serve ends it. The span is looked for in the context the
// middleware made, not in one a middleware below it derived. A span that
// exists but was sampled out is left so. It is called before an error is
// rendered, so the body carries the id of the trace the error is recorded
// in.
func (t *telemetry) trace(rec *recorder, r *http.Request) string {
	f := rec.failure()
	if f.span == nil {
		var ctx context.Context = rec // the request as the middleware got it
		f.span = trace.SpanFromContext(ctx)
		if !f.span.SpanContext().IsValid() && t.tracing() {
			parent := propagation.TraceContext{}.Extract(ctx, propagation.HeaderCarrier(r.Header))
			_, f.span = t.tracer.Start(parent, "toolerr.error", trace.WithSpanKind(trace.SpanKindServer))
			f.ownSpan = true
			if sc := f.span.SpanContext(); f.span.IsRecording() && sc.HasTraceID() {
				f.spanTrace = sc.TraceID().String()
			}
		}
	}
	return f.spanTrace
}

// onSpan records e on the server span by the HTTP semantic conventions,
// which reserve error.type and the Error status of a server span for
// server errors: a 4xx is the caller's mistake and leaves them unset.
//
//   - Always: toolerr.code and toolerr.category, so 4xx calls can be
//     queried without counting as errors; and for a tool's error the
//     GenAI execute_tool attributes gen_ai.operation.name and
//     gen_ai.tool.name.
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
	if tool := toolmetrics.ToolName(e.Code, e.Tool); tool != "" {
		// The GenAI conventions' attributes of a tool's execution.
		span.SetAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", tool),
		)
	}
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
