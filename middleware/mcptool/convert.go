package mcptool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/translate"
)

// panicError is the Go cause of the INTERNAL_ERROR that replaces a panic;
// it reaches logs only.
type panicError struct{ value any }

// Error describes the panic value for logs.
func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// Unwrap returns the panic value when it is an error, for errors.As.
func (p panicError) Unwrap() error {
	err, _ := p.value.(error)
	return err
}

// failed turns an error the handler of tool returned into its failure and
// logs it.
func (c *config) failed(ctx context.Context, tool string, err error) *failure {
	e := c.complete(ctx, tool, c.fromError(ctx, err))
	c.log(ctx, e, err, nil)
	return newFailure(e)
}

// panicked turns a panic of the handler of tool into INTERNAL_ERROR and
// logs the value and the stack, secrets redacted.
func (c *config) panicked(ctx context.Context, tool string, v any) *failure {
	stack := debug.Stack()
	cause := panicError{v}
	e := c.complete(ctx, tool, c.registry.New(toolerr.CodeInternal, "").WithCause(cause))
	c.log(ctx, e, cause, stack)
	return newFailure(e)
}

// fromError turns a returned error into the error to send: a
// *toolerr.Error anywhere in the chain is used (with the vendor's message as
// its detail when translate gave it none); a Go error the classifier knows
// is classified; anything else is INTERNAL_ERROR. err's text never reaches
// the result: complete sanitizes whatever this returns.
func (c *config) fromError(ctx context.Context, err error) *toolerr.Error {
	if e, ok := toolerr.From(err); ok {
		var ve *translate.VendorError
		if e.Detail == e.Title && errors.As(err, &ve) && ve.Message != "" {
			e = e.WithDetail(ve.Message)
		}
		return e
	}
	if e, ok := c.classifier.GoError(ctx, err, c.method(), c.idempotent); ok {
		return e
	}
	if cerr := ctx.Err(); cerr != nil {
		// The call was cancelled or timed out and the handler returned
		// whatever its last step made of that: report the interruption.
		if e, ok := c.classifier.GoError(ctx, cerr, c.method(), c.idempotent); ok {
			return e.WithCause(err)
		}
	}
	return c.registry.New(toolerr.CodeInternal, "").WithCause(err)
}

// complete adds what belongs to this call and makes the error safe to
// send: the tool name (unless the error names one), the request id and
// trace id of the call's request scope, which callContext made (a new
// request id when the context has none; no trace id when it has none: a
// trace id is never invented), the intent the handler recorded when the
// call was interrupted, and every string of every member sanitized.
func (c *config) complete(ctx context.Context, tool string, e *toolerr.Error) *toolerr.Error {
	if e.Tool == "" && tool != "" {
		e = e.WithTool(tool)
	}
	id := toolerr.RequestID(ctx)
	if !toolerr.ValidRequestID(id) {
		id = toolerr.NewRequestID()
	}
	trace := toolerr.TraceID(ctx)
	if !toolerr.ValidTraceID(trace) {
		trace = ""
	}
	e = e.WithRequestID(id).WithTraceID(trace)
	interrupted := e.Code == toolerr.CodeCancelled || e.Code == toolerr.CodeUpstreamTimeout || ctx.Err() != nil
	if e.Intent == nil && interrupted {
		if in, ok := toolerr.RecordedIntent(ctx); ok {
			e = e.WithIntent(in)
		}
	}
	// Every string of every member, sanitized: the result, its
	// structured content and the log record all carry this error.
	return e.MapText(c.sanitizer.CleanText)
}

// log writes one record for e at a level fitting its category: the
// sanitized members, the Go cause and, for a panic, the stack, both with
// secrets redacted.
func (c *config) log(ctx context.Context, e *toolerr.Error, cause error, stack []byte) {
	level := e.Category.LogLevel()
	if !c.logger.Enabled(ctx, level) {
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
		attrs = append(attrs, slog.String("cause", c.sanitizer.Redact(cause.Error())))
	}
	if stack != nil {
		attrs = append(attrs, slog.String("stack", c.sanitizer.Redact(string(stack))))
	}
	c.logger.LogAttrs(ctx, level, "toolerr: MCP tool call failed", attrs...)
}
