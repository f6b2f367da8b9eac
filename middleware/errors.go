package middleware

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/internal/toolmetrics"
	"github.com/toolerr/toolerr/translate"
)

// fromError turns an error a Tool handler returned into the error to
// render: a *toolerr.Error anywhere in the chain is used (with the vendor's
// own message as its detail when it came from translate without one); a Go
// error the classifier knows (network, context) is classified; anything
// else is INTERNAL_ERROR. err's text never reaches the body: [handler.complete]
// sanitizes whatever this returns.
func (m *handler) fromError(r *http.Request, err error) *toolerr.Error {
	if e, ok := toolerr.From(err); ok {
		// translate.Response keeps the vendor's message in its cause; with
		// no message filter there the detail is the code's title, and the
		// sanitized vendor message says more.
		if e.Detail == e.Title {
			if msg := vendorMessage(err); msg != "" {
				e = e.WithDetail(msg)
			}
		}
		return e
	}
	ctx := r.Context()
	keyed := canonheader.Value(r.Header, "Idempotency-Key") != ""
	if e, ok := m.cfg.classifier.HandlerError(ctx, err, r.Method, keyed); ok {
		return e
	}
	if cerr := ctx.Err(); cerr != nil {
		// The request was cancelled or timed out and the handler returned
		// whatever its last call made of that: report the interruption.
		if e, ok := m.cfg.classifier.HandlerError(ctx, cerr, r.Method, keyed); ok {
			return e.WithCause(err)
		}
	}
	// An SDK's error nothing read: counted as unmapped, and logged once
	// per Go type with what to register or upgrade.
	m.tel.unread.Report(ctx, err)
	return m.cfg.registry.New(toolerr.CodeInternal, "").WithCause(err)
}

// vendorMessage returns the vendor's own message of a translate error in
// err's chain, or "". (A function of its own: the variable errors.As
// fills escapes, and would cost every error an allocation.)
func vendorMessage(err error) string {
	var ve *translate.VendorError
	if errors.As(err, &ve) {
		return ve.Message
	}
	return ""
}

// fromCapture turns a held-back response of 400 or more into the error to
// render. A toolerr error the handler wrote is kept; a toolerr error body
// from elsewhere (a downstream toolerr service the handler relayed) is kept
// with its request id moved to upstream.request_id; anything else is
// translated and classified. [handler.complete] sanitizes the result.
func (m *handler) fromCapture(rec *recorder, r *http.Request) (e *toolerr.Error, owned bool) {
	ctx := r.Context()
	written := reqscope.Written[*toolerr.Error](ctx)
	if written != nil && written.Status == rec.status {
		// toolerr.Write rendered it: the body may have been compressed or
		// re-encoded by a middleware in between (chi's Compress).
		return written, false
	}
	body := bytes.TrimSpace(rec.body)
	if len(body) > 0 && body[0] == '{' && !rec.truncated {
		// Every rendering has a category member and few vendor bodies do:
		// a cheap test spares a full decode of every vendor body.
		if bytes.Contains(body, []byte(`"category"`)) {
			if e, err := toolerr.Parse(body); err == nil {
				if ours := toolerr.RequestID(ctx); e.RequestID != "" && e.RequestID == ours {
					// This request's own rendering behind a status held
					// back before it (gin's AbortWithStatus(400), then
					// toolerr.Write): that status is no evidence of a
					// downstream, and the error's own status is the
					// response's.
					if written != nil && written.Code == e.Code {
						return written, false
					}
					return e.WithTraceID(""), true
				}
				return relayed(e, rec.status), true
			}
		}
	}
	// The response's headers are read where they are, not copied: the
	// handler is done with them, and the error response replaces them. The
	// request id the middleware set is ours, not the vendor's: it is out of
	// the map while the translators read it.
	header := rec.w.Header()
	if ours := header["X-Request-Id"]; len(ours) == 1 && ours[0] == toolerr.RequestID(ctx) {
		delete(header, "X-Request-Id")
		defer func() { header["X-Request-Id"] = ours }()
	}
	// The Raw lives in the request's failure state (recycled, as
	// translators may not keep it): passed to a Translator interface it
	// would otherwise be allocated on every error.
	raw := &rec.failure().raw
	*raw = translate.Raw{
		Method:     r.Method,
		Status:     rec.status,
		Header:     header,
		Body:       rec.body,
		Truncated:  rec.truncated,
		Vendor:     reqscope.RecordedVendor(ctx),
		Idempotent: canonheader.Value(r.Header, "Idempotency-Key") != "",
	}
	var o classify.Outcome
	ok := false
	if m.cfg.translator != nil {
		o, ok = m.cfg.translator.Translate(raw)
	}
	if !ok {
		o = classify.Outcome{Method: raw.Method, Status: raw.Status, Header: raw.Header, Vendor: raw.Vendor}
	}
	o.Idempotent = o.Idempotent || raw.Idempotent
	if !downstream(raw, o, ok) {
		return m.localError(rec, r, rec.next, o), true
	}
	d := m.cfg.classifier.Decide(o)
	if d.Unmapped {
		m.tel.unmapped.Report(ctx, reqscope.UnmappedResponse{Vendor: o.Vendor, VendorCode: o.VendorCode,
			Status: o.Status, Code: d.Code, Header: raw.Header, Body: raw.Body})
	}
	if raw.Truncated {
		m.tel.metrics.Truncated(ctx, toolmetrics.StageCapture)
	}
	return m.cfg.classifier.Build(d, o), true
}

// relayed returns the toolerr error of a body the handler relayed from a
// downstream toolerr service: the downstream's request id is the
// upstream's, never this request's, and its trace id is not ours either.
func relayed(e *toolerr.Error, status int) *toolerr.Error {
	if e.Upstream == nil && e.RequestID != "" {
		e = e.WithUpstream(toolerr.Upstream{Vendor: "toolerr", Status: status, RequestID: e.RequestID})
	}
	return e.WithRequestID("").WithTraceID("")
}

// sanitized returns e with every string of every member passed through the
// sanitizer (toolerr.Error.MapText). An upstream request id that is not a
// valid request id once cleaned is not rendered.
func (m *handler) sanitized(e *toolerr.Error) *toolerr.Error {
	return e.MapText(m.hooks.Clean)
}
