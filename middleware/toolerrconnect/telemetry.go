package toolerrconnect

import (
	"context"
	"fmt"
	"log/slog"

	"connectrpc.com/connect"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/toolmetrics"
)

// instrumentationName names the interceptor's meter.
const instrumentationName = "github.com/toolerr/toolerr/middleware/toolerrconnect"

// rpcStatus is the outcome attribute of a failed call's count: the
// Connect code.
const rpcStatus = attribute.Key("rpc.response.status_code")

// serverFault reports whether code is a failure of the server by the
// OpenTelemetry RPC conventions (server spans): the codes a caller's
// mistake never causes.
func serverFault(code connect.Code) bool {
	switch code {
	case connect.CodeUnknown, connect.CodeDeadlineExceeded, connect.CodeUnimplemented,
		connect.CodeInternal, connect.CodeUnavailable, connect.CodeDataLoss:
		return true
	}
	return false
}

// record puts e on the call's span, counts it in toolerr.errors and
// writes one log record for it, at the level of its category. e is sanitized; the cause and a panic's
// value and stack are redacted here.
func (i *interceptor) record(ctx context.Context, call callInfo, e *toolerr.Error, code connect.Code, p *panicInfo, dropped int) {
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(
			attribute.String("toolerr.code", e.Code),
			attribute.String("toolerr.category", string(e.Category)),
		)
		if serverFault(code) {
			// The span's status is the RPC instrumentation's to set
			// (otelconnect); error.type and the event say which failure.
			span.SetAttributes(attribute.String("error.type", e.Code))
			span.AddEvent("exception", trace.WithAttributes(
				attribute.String("exception.type", e.Code),
				attribute.String("exception.message", e.Detail),
			))
		}
	}
	vendor := ""
	if e.Upstream != nil {
		vendor = e.Upstream.Vendor
	}
	i.metrics.Error(ctx, toolmetrics.ErrorAttrs{Code: e.Code, Category: string(e.Category),
		Tool: e.Tool, Vendor: vendor, Result: rpcStatus.String(code.String())})
	level := e.Category.LogLevel()
	log := i.cfg.logger
	if !log.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 14)
	attrs = append(attrs,
		slog.String("code", e.Code),
		slog.String("category", string(e.Category)),
		slog.String("connect_code", code.String()),
		slog.Bool("retryable", e.Retryable),
		slog.String("request_id", e.RequestID),
		slog.String("trace_id", e.TraceID),
		slog.String("tool", e.Tool),
		slog.String("protocol", call.protocol),
		slog.String("detail", e.Detail),
	)
	if u := e.Upstream; u != nil {
		attrs = append(attrs, slog.Group("upstream",
			slog.String("vendor", u.Vendor), slog.Int("status", u.Status),
			slog.String("code", u.Code), slog.String("request_id", u.RequestID)))
	}
	if cause := e.Unwrap(); cause != nil {
		attrs = append(attrs, slog.String("cause", i.san.Redact(cause.Error())))
	}
	if dropped > 0 {
		attrs = append(attrs, slog.Int("details_dropped", dropped))
	}
	if p != nil {
		attrs = append(attrs, slog.String("stack", i.san.Redact(fmt.Sprintf("panic: %v\n\n%s", p.value, p.stack))))
	}
	log.LogAttrs(ctx, level, "toolerr: rpc failed", attrs...)
}
