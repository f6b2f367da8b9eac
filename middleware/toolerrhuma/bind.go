package toolerrhuma

import (
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/middleware"
)

// bind completes e for the request of ctx and decides who renders it.
//
// When a toolerr middleware serves the request, report (the handler's own
// plain error, else e) is handed to it with middleware.ReportError: the
// middleware renders the error once, on its way out, in place of what huma
// writes. Else huma renders it: e gets what toolerr.Write would give it
// (the request's ids, the request path as instance, the operation id as
// tool), is sanitized, and the response gets toolerr's headers.
func bind(ctx huma.Context, cfg *config, e *toolerr.Error, report error) *statusError {
	c := ctx.Context()
	if e.Tool == "" {
		if op := ctx.Operation(); op != nil && op.OperationID != "" {
			e = e.WithTool(op.OperationID)
		}
	}
	if report == nil {
		report = e
	}
	if middleware.ReportError(c, report) {
		// What huma writes is held back and replaced by the middleware.
		return &statusError{err: e.WithRequestID(toolerr.RequestID(c)), cfg: cfg, reported: true}
	}
	rid := toolerr.RequestID(c)
	if !toolerr.ValidRequestID(rid) {
		rid = ctx.Header("X-Request-Id")
		if !toolerr.ValidRequestID(rid) {
			rid = reqscope.NewRequestID()
		}
	}
	tid := toolerr.TraceID(c)
	if tid == "" {
		tid = spanTraceID(c)
	}
	if e.Instance == "" {
		u := ctx.URL()
		e = e.WithInstance(u.Path)
	}
	e = withRenderedDelay(e.WithRequestID(rid).WithTraceID(tid)).MapText(cfg.sanitizer.CleanText)
	ctx.SetHeader("X-Request-Id", e.RequestID)
	ctx.SetHeader("Cache-Control", "no-store")
	ctx.SetHeader("X-Content-Type-Options", "nosniff")
	if e.RetryAfter > 0 {
		ctx.SetHeader("Retry-After", strconv.FormatInt(int64((e.RetryAfter+time.Second-1)/time.Second), 10))
	}
	return &statusError{err: e, bound: true, cfg: cfg}
}

// withRenderedDelay makes the delay a retryable rate limit renders explicit,
// so that the Retry-After header and retry_after_ms agree: the code's base
// delay, else a second, toolerr's default.
func withRenderedDelay(e *toolerr.Error) *toolerr.Error {
	if e.RetryAfter > 0 || !e.Retryable || e.Category != toolerr.CategoryRateLimit {
		return e
	}
	d := time.Second
	if p := e.RetryPolicy; p != nil && p.BaseDelay > 0 {
		d = p.BaseDelay
	}
	return e.WithRetryAfter(d)
}
