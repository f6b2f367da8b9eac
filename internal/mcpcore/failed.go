package mcpcore

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/translate"
)

// Call is what the core knows of the tool call that failed.
type Call struct {
	// Tool is the called tool's name as the client sent it; the core
	// sanitizes it.
	Tool string
	// Idempotent says whether calling the tool again with the same
	// arguments does its work once (its idempotentHint, or the core's
	// default): the classifier makes a timeout retryable only then.
	Idempotent bool
	// ReadOnly says the tool changes nothing (its readOnlyHint). A call
	// of any other tool is mutating: its unknown outcome keeps a
	// mutating fallback out unless the tool is idempotent.
	ReadOnly bool
}

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

// Failed turns an error the handler of call returned into its failure,
// and records it (span, counter, log).
func (c *Core) Failed(ctx context.Context, call Call, err error) *Failure {
	e := c.complete(ctx, call, c.fromError(ctx, call, err))
	return NewFailure(c.tel.record(ctx, c, e, err, nil))
}

// Panicked turns a panic of the handler of call into INTERNAL_ERROR and
// records it; the value and the stack, secrets redacted, go to the log
// and the span's exception event only.
func (c *Core) Panicked(ctx context.Context, call Call, v any) *Failure {
	stack := debug.Stack()
	cause := panicError{v}
	e := c.complete(ctx, call, c.Registry.New(toolerr.CodeInternal, "").WithCause(cause))
	return NewFailure(c.tel.record(ctx, c, e, cause, stack))
}

// Rejected records e, an error the adapter built itself (arguments that
// break the input schema, an unknown tool), for call, and returns its
// failure.
func (c *Core) Rejected(ctx context.Context, call Call, e *toolerr.Error) *Failure {
	e = c.complete(ctx, call, e)
	return NewFailure(c.tel.record(ctx, c, e, e.Unwrap(), nil))
}

// fromError turns a returned error into the error to send: a
// *toolerr.Error anywhere in the chain is used (with the vendor's message
// as its detail when translate gave it none); a Go error the classifier
// knows is classified; anything else is INTERNAL_ERROR. err's text never
// reaches the result: complete sanitizes whatever this returns.
func (c *Core) fromError(ctx context.Context, call Call, err error) *toolerr.Error {
	if e, ok := toolerr.From(err); ok {
		var ve *translate.VendorError
		if e.Detail == e.Title && errors.As(err, &ve) && ve.Message != "" {
			e = e.WithDetail(ve.Message)
		}
		return e
	}
	method := Method(call.Idempotent)
	if e, ok := c.Classifier.GoError(ctx, err, method, call.Idempotent); ok {
		return e
	}
	if cerr := ctx.Err(); cerr != nil {
		// The call was cancelled or timed out and the handler returned
		// whatever its last step made of that: report the interruption.
		if e, ok := c.Classifier.GoError(ctx, cerr, method, call.Idempotent); ok {
			return e.WithCause(err)
		}
	}
	// An SDK's error nothing read: counted as unmapped, and logged once
	// per Go type with what to register or upgrade.
	c.tel.unread.Report(ctx, err)
	return c.Registry.New(toolerr.CodeInternal, "").WithCause(err)
}

// complete adds what belongs to this call and makes the error safe to
// send: the tool name (unless the error names one), the request id and
// trace id of the call's request scope ([Core.CallContext] made it; a new
// request id when the context has none; no trace id when it has none: a
// trace id is never invented), the intent the handler recorded when the
// call was interrupted, the fallbacks declared for the tool that the
// failure allows, and every string of every member sanitized.
func (c *Core) complete(ctx context.Context, call Call, e *toolerr.Error) *toolerr.Error {
	if e.Tool == "" && call.Tool != "" {
		e = e.WithTool(call.Tool)
	}
	id := toolerr.RequestID(ctx)
	if !toolerr.ValidRequestID(id) {
		id = reqscope.NewRequestID()
	}
	trace := toolerr.TraceID(ctx)
	if !toolerr.ValidTraceID(trace) {
		trace = ""
	}
	e = e.WithRequestID(id).WithTraceID(trace)
	interrupted := e.Code == toolerr.CodeCancelled || e.Code == toolerr.CodeUpstreamTimeout || ctx.Err() != nil
	if e.Intent == nil && interrupted {
		if in, ok := reqscope.RecordedIntent[toolerr.Intent](ctx); ok {
			e = e.WithIntent(in)
		}
	}
	e = c.offerFallbacks(call, e) // fallback.go
	// Every string of every member, sanitized: the result, its
	// structured content and the log record all carry this error.
	return e.MapText(c.Sanitizer.CleanText)
}
