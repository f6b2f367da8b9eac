package mcpcore

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
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/internal/unreadsdk"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
)

// instrumentationName names the tracer and meter of every MCP adapter.
const instrumentationName = "github.com/toolerr/toolerr/mcp"

// methodToolsCall is the MCP method of every recorded failure.
const methodToolsCall = "tools/call"

// telemetry records each failed call on a span, in the toolerr.errors
// counter and in the log, as the HTTP middleware records each error.
type telemetry struct {
	tracer  trace.Tracer
	metrics *toolmetrics.Set
	logger  *slog.Logger
	san     *sanitize.Sanitizer
	unread  *unreadsdk.Reporter // SDK errors nothing read, in toolerr.upstream.unmapped
	// unmapped counts, samples and logs an outbound call's unmapped
	// response: the Unmapped hook of every call's request scope.
	unmapped *toolmetrics.UnmappedReporter
}

// newTelemetry creates the tracer; the instruments are metrics, made
// before the core's sanitizer was observed (options.go).
func newTelemetry(tp trace.TracerProvider, metrics *toolmetrics.Set, logger *slog.Logger, san *sanitize.Sanitizer, samples *unmapped.Sampler) *telemetry {
	return &telemetry{tracer: tp.Tracer(instrumentationName), metrics: metrics, logger: logger, san: san,
		unmapped: &toolmetrics.UnmappedReporter{Metrics: metrics, Sanitizer: san, Samples: samples, Logger: logger},
		unread:   unreadsdk.New(metrics, logger)}
}

// mcpMethod is the outcome attribute of every failed call's count.
var mcpMethod = attribute.String("mcp.method.name", methodToolsCall)

// record puts e on a "toolerr.error" span of the call's trace, the
// toolerr.errors counter and the log, and returns e with the trace id of
// that span when e had none and the span records. e must be sanitized.
func (t *telemetry) record(ctx context.Context, c *Core, e *toolerr.Error, cause error, stack []byte) *toolerr.Error {
	parent := t.parent(ctx, e.TraceID)
	_, span := t.tracer.Start(parent, "toolerr.error", trace.WithSpanKind(trace.SpanKindInternal))
	if sc := span.SpanContext(); e.TraceID == "" && span.IsRecording() && sc.HasTraceID() {
		e = e.WithTraceID(sc.TraceID().String())
	}
	t.onSpan(span, c, e, stack)
	span.End()
	vendor := ""
	if e.Upstream != nil {
		vendor = e.Upstream.Vendor
	}
	t.metrics.Error(ctx, toolmetrics.ErrorAttrs{Code: e.Code, Category: string(e.Category),
		Tool: e.Tool, Vendor: vendor, Result: mcpMethod})
	t.log(ctx, c, e, cause, stack)
	return e
}

// parent returns the context whose span the error span is a child of:
//
//   - the span of ctx when it is in the call's trace (traceID), or when
//     the call has no trace id and ctx comes from no HTTP request (stdio,
//     in memory: the span is the caller's);
//   - else, over streamable HTTP under toolerr's middleware, the server
//     span of the POST that carried the call, from the traceparent the
//     middleware wrote on it (reqscope.HeaderTraceparent), when it is in
//     the call's trace;
//   - else none: the span starts a trace of its own. MCP libraries run a
//     stateful session's calls under the context of the request that
//     opened it, whose span is another request's.
func (t *telemetry) parent(ctx context.Context, traceID string) context.Context {
	sc := trace.SpanContextFromContext(ctx)
	switch {
	case traceID != "" && sc.HasTraceID() && sc.TraceID().String() == traceID:
		return ctx
	case traceID == "" && sc.IsValid() && ctx.Value(http.ServerContextKey) == nil:
		return ctx
	}
	if h := callHeader(ctx); h != nil && traceID != "" {
		// The traceparent of the POST's server span, which toolerr's
		// middleware writes (reqscope.HeaderTraceparent); only its trace id
		// decides, and only when it is the call's.
		carrier := propagation.HeaderCarrier{"Traceparent": h.Values(reqscope.HeaderTraceparent)}
		remote := propagation.TraceContext{}.Extract(context.Background(), carrier)
		if rsc := trace.SpanContextFromContext(remote); rsc.IsValid() && rsc.TraceID().String() == traceID {
			return trace.ContextWithRemoteSpanContext(ctx, rsc)
		}
	}
	return trace.ContextWithSpanContext(ctx, trace.SpanContext{})
}

// onSpan records e by the conventions the HTTP middleware follows: always
// toolerr.code, toolerr.category, the tool and the MCP method; for a
// failure of the server's side (a status of 500 or more), error.type, the
// Error status and one exception event with the sanitized detail and,
// for a panic, the redacted stack.
func (t *telemetry) onSpan(span trace.Span, c *Core, e *toolerr.Error, stack []byte) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(
		attribute.String("toolerr.code", e.Code),
		attribute.String("toolerr.category", string(e.Category)),
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", toolmetrics.ToolName(e.Code, e.Tool)),
		attribute.String("mcp.method.name", methodToolsCall),
	)
	if e.Status > 0 && e.Status < 500 {
		return
	}
	span.SetAttributes(attribute.String("error.type", e.Code))
	attrs := []attribute.KeyValue{
		attribute.String("exception.type", e.Code),
		attribute.String("exception.message", e.Detail),
	}
	if stack != nil {
		attrs = append(attrs, attribute.String("exception.stacktrace", c.Sanitizer.Redact(fmt.Sprintf("%s\n\n%s", e.Unwrap(), stack))))
	}
	span.AddEvent("exception", trace.WithAttributes(attrs...))
	span.SetStatus(codes.Error, e.Code)
}

// log writes one record for e at a level fitting its category: the
// sanitized members, the Go cause and, for a panic, the stack, both with
// secrets redacted.
func (t *telemetry) log(ctx context.Context, c *Core, e *toolerr.Error, cause error, stack []byte) {
	level := e.Category.LogLevel()
	if !t.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 10)
	attrs = append(attrs,
		slog.String("code", e.Code),
		slog.String("category", string(e.Category)),
		slog.Bool("retryable", e.Retryable),
		slog.String("request_id", e.RequestID),
		slog.String("trace_id", e.TraceID),
		slog.String("tool", e.Tool),
		slog.String("detail", e.Detail),
	)
	if cause != nil {
		attrs = append(attrs, slog.String("cause", c.Sanitizer.Redact(cause.Error())))
	}
	if stack != nil {
		attrs = append(attrs, slog.String("stack", c.Sanitizer.Redact(string(stack))))
	}
	t.logger.LogAttrs(ctx, level, "toolerr: MCP tool call failed", attrs...)
}

// CountCall counts one call of tool in toolerr.tool.calls. An adapter
// calls it once per call, with the name of a tool the server has, or ""
// for a call of a tool it does not have: a name a client made up is no
// attribute value.
func (c *Core) CountCall(tool string) { c.tel.metrics.Call(tool) }
