package toolerrconnect

import (
	"context"
	"errors"
	"strings"

	"connectrpc.com/connect"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/translate"
)

// sent is the cause of every Connect error the interceptor sends: its text
// is the error's sanitized detail, the one thing of it the protocol's
// message carries; it unwraps to the sanitized *toolerr.Error (whose own
// cause is the handler's error, for logs), so interceptors outside this
// one, and errors.As, still find both.
type sent struct{ e *toolerr.Error }

// Error returns the sanitized detail.
func (s *sent) Error() string { return s.e.Detail }

// Unwrap returns the toolerr error sent.
func (s *sent) Unwrap() error { return s.e }

// convert returns the Connect error to send for err, a handler's error or
// a recovered panic (p), and records it.
func (i *interceptor) convert(ctx context.Context, call callInfo, err error, p *panicInfo) error {
	if connect.IsNotModifiedError(err) {
		return err // a 304 for a Connect GET: a success, not a failure
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		if _, ours := ce.Unwrap().(*sent); ours {
			return ce // converted already, by an inner interceptor of ours
		}
	}
	var (
		e    *toolerr.Error
		keep connect.Code
		src  *connect.Error
	)
	if p != nil {
		e = i.cfg.registry.New(toolerr.CodeInternal, "").WithCause(err) // whatever the context says
	} else {
		e, keep, src = i.classified(ctx, call, err)
	}
	e, generated := i.complete(ctx, call, e)
	e = i.offerFallbacks(call, e) // fallback.go
	code := keep
	if code == 0 {
		code = CodeFor(e)
	}
	out := connect.NewError(code, &sent{e: e})
	dropped := i.attachDetails(out, e, src)
	if src != nil {
		i.copyMeta(out.Meta(), src.Meta())
	}
	if generated {
		out.Meta().Set("X-Request-Id", e.RequestID)
	}
	i.record(ctx, call, e, code, p, dropped)
	return out
}

// classified turns err into a toolerr error. keep is the Connect code to
// send when it is not [CodeFor]'s (a handler's own *connect.Error keeps
// its code), else 0; src is that handler's own *connect.Error, whose
// details and metadata are kept, sanitized, or nil. A downstream's
// details and metadata are never relayed: what they say is in e.
//
//   - A *toolerr.Error anywhere in the chain is used as is.
//   - A *connect.Error from the wire (a downstream's answer), or one
//     wrapping the network or context error of a client call, is
//     classified as a downstream failure ([Mapper]).
//   - Any other *connect.Error is the handler's own: its code keeps its
//     meaning (see localCode), its message is the detail unless the code
//     is INTERNAL_ERROR, and its RetryInfo and BadRequest details are
//     read.
//   - A Go error the classifier knows is classified; anything else is
//     INTERNAL_ERROR, its text for the log only.
func (i *interceptor) classified(ctx context.Context, call callInfo, err error) (e *toolerr.Error, keep connect.Code, src *connect.Error) {
	idempotent := call.spec.IdempotencyLevel != connect.IdempotencyUnknown
	if e, ok := toolerr.From(err); ok {
		if e.Detail == e.Title {
			var ve *translate.VendorError
			if errors.As(err, &ve) && ve.Message != "" {
				e = e.WithDetail(ve.Message) // sanitized with the rest
			}
		}
		return e, 0, nil
	}
	var ce *connect.Error
	if errors.As(err, &ce) && ce != nil {
		if connect.IsWireError(ce) || (ce.Unwrap() != nil && goError(ce.Unwrap())) {
			o := outcomeOf(ce)
			o.Method, o.Idempotent = call.method, idempotent
			return i.cfg.classifier.ClassifyCause(ctx, o, err), 0, nil
		}
		return i.local(ce, err, idempotent), normalized(ce.Code()), ce
	}
	if e, ok := i.cfg.classifier.HandlerError(ctx, err, call.method, idempotent); ok {
		return e, 0, nil
	}
	if cerr := ctx.Err(); cerr != nil {
		// The call was cancelled or timed out and the handler returned
		// whatever its last call made of that: report the interruption.
		if e, ok := i.cfg.classifier.HandlerError(ctx, cerr, call.method, idempotent); ok {
			return e.WithCause(err), 0, nil
		}
	}
	return i.cfg.registry.New(toolerr.CodeInternal, "").WithCause(err), 0, nil
}

// normalized is c, or Unknown for a code outside the sixteen.
func normalized(c connect.Code) connect.Code {
	if validCode(c) {
		return c
	}
	return connect.CodeUnknown
}

// local is the toolerr error of a *connect.Error the handler made itself.
// Its message, untrusted like any text, is sanitized with the rest of the
// error; for INTERNAL_ERROR (Internal, Unknown, DataLoss) it is not used
// at all: connect.NewError(connect.CodeInternal, err) carries a Go
// error's raw text.
//
// A DeadlineExceeded (TOOL_TIMEOUT) may have taken effect: retryable only
// for an idempotent procedure, as a handler's own deadline is.
func (i *interceptor) local(ce *connect.Error, err error, idempotent bool) *toolerr.Error {
	var o classify.Outcome
	info := readDetails(ce.Details(), &o)
	code := localCode(ce.Code())
	if info.quota && code == toolerr.CodeRateLimited {
		code = toolerr.CodeQuotaExhausted
	}
	detail := ce.Message()
	if code == toolerr.CodeInternal {
		detail = ""
	}
	e := i.cfg.registry.New(code, detail)
	if code == toolerr.CodeToolTimeout && !idempotent {
		e = e.WithRetryable(false)
	}
	if o.Delay > 0 && e.Retryable {
		e = e.WithRetryAfter(min(o.Delay, classify.DefaultMaxDelay))
	}
	if o.Field != "" {
		e = e.WithField(classify.FieldPointer(o.Field))
	}
	if len(o.Violations) > 0 {
		e = e.WithViolations(o.Violations...)
	}
	return e.WithCause(err)
}

// toolOf returns the tool name of call: the WithToolName function's, else
// the procedure.
func (i *interceptor) toolOf(call callInfo) string {
	if i.cfg.toolName != nil {
		if name := i.cfg.toolName(call.spec); name != "" {
			return name
		}
	}
	return call.spec.Procedure
}

// complete gives e the call's tool name, request id and trace id, and
// sanitizes every string of it. generated reports that the request id was
// made here, as no toolerr middleware set one.
func (i *interceptor) complete(ctx context.Context, call callInfo, e *toolerr.Error) (_ *toolerr.Error, generated bool) {
	if e.Tool == "" {
		e = e.WithTool(i.toolOf(call))
	}
	id := toolerr.RequestID(ctx)
	if !toolerr.ValidRequestID(id) {
		id, generated = reqscope.NewRequestID(), true
	}
	traceID := toolerr.TraceID(ctx)
	if traceID == "" {
		if sc := trace.SpanContextFromContext(ctx); sc.HasTraceID() {
			traceID = sc.TraceID().String()
		}
	}
	e = e.WithRequestID(id).WithTraceID(traceID).MapText(i.clean)
	if e.RequestID != id {
		// The middleware's id, vetted by its own sanitizer and already in
		// the response's X-Request-Id (this interceptor's sanitizer,
		// configured apart, may still change it): the body must name the
		// same id.
		e = e.WithRequestID(id)
	}
	if strings.TrimSpace(e.Detail) == "" {
		e = e.WithDetail(e.Title)
	}
	return e, generated
}
