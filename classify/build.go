package classify

import (
	"context"
	"errors"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/textcut"
)

// Classify classifies o and builds the error: the code's definition from the
// registry, the decided retryability and delay, the vendor's field and
// message (through the message filter only), and upstream set to the
// vendor, status, code and request id (a code or id that the message
// filter would change is left out). The Go error o.Err becomes the cause.
// Unmapped outcomes are reported to the observer.
func (c *Classifier) Classify(ctx context.Context, o Outcome) *toolerr.Error {
	d := c.Decide(o)
	c.observe(ctx, d, o)
	return c.build(d, o, o.Err)
}

// ClassifyCause is Classify with cause as the error's Go cause in place of
// o.Err: Classify(ctx, o).WithCause(cause) without the copy of the error
// that WithCause makes. The translate package gives its vendor errors so.
func (c *Classifier) ClassifyCause(ctx context.Context, o Outcome, cause error) *toolerr.Error {
	d := c.Decide(o)
	c.observe(ctx, d, o)
	return c.build(d, o, cause)
}

// observe tells the observer of an unmapped classification, with the
// vendor's code through the message filter.
func (c *Classifier) observe(ctx context.Context, d Decision, o Outcome) {
	if d.Unmapped && c.observer != nil {
		code := textcut.AtWord(o.VendorCode, 128) // cut before the filter reads it: at a word
		if c.filter != nil {
			code = c.filter(code)
		}
		c.observer.Unmapped(ctx, Unmapped{
			Vendor:     textcut.AtRune(o.Vendor, 128),
			VendorCode: code,
			Status:     o.Status,
			Code:       d.Code,
		})
	}
}

// Build builds the error of a decision made by [Classifier.Decide] on o.
func (c *Classifier) Build(d Decision, o Outcome) *toolerr.Error {
	return c.build(d, o, o.Err)
}

// build builds the error of d on o with the Go cause cause.
func (c *Classifier) build(d Decision, o Outcome, cause error) *toolerr.Error {
	detail := d.detail
	if c.filter != nil && o.Message != "" {
		detail = c.filter(o.Message)
	}
	e := c.reg.NewCause(d.Code, detail, cause)
	e.Retryable = d.Retryable
	e.RetryAfter = 0
	if d.Retryable {
		e.RetryAfter = d.Delay
		if e.RetryAfter == 0 && e.RetryPolicy != nil && e.RetryPolicy.Strategy == toolerr.StrategyRetryAfter {
			e.RetryAfter = e.RetryPolicy.BaseDelay
		}
	}
	if o.Field != "" {
		if c.filter != nil {
			e.Field = c.filter(o.Field)
		} else if plainToken(o.Field, toolerr.MaxFieldLen) {
			e.Field = o.Field
		}
	}
	// e is New's fresh copy, held by nobody else, and the violations and
	// details below are new slices and maps of this call: they are set in
	// place rather than through WithViolations and WithDetails, each of
	// which would copy the whole error (and the details map) once more.
	if vs := c.violations(o.Violations); len(vs) > 0 {
		e.Violations = vs
	}
	if details := c.details(o.Details); len(details) > 0 {
		if len(e.Details) > 0 {
			e = e.WithDetails(details) // a definition's own details: merged, as before
		} else {
			e.Details = details
		}
	}
	if !o.Local && (o.Vendor != "" || o.Status > 0) {
		u := toolerr.Upstream{Vendor: "unknown", Status: o.Status}
		if plainToken(o.Vendor, toolerr.MaxNameLen) {
			u.Vendor = o.Vendor
		}
		u.Code = c.vendorToken(o.VendorCode, toolerr.MaxNameLen)
		u.RequestID = c.vendorToken(o.RequestID, toolerr.MaxIDLen)
		e.Upstream = &u
	}
	return e
}

// GoError classifies a Go error that a call returned instead of a response:
// a typed error the classifier's mappers know ([WithErrorMappers],
// [SQLMapper]), or a network, TLS or context error. ok is false when no
// rule knows err; the caller decides what an unknown
// error is (the middleware makes it INTERNAL_ERROR). Use it for errors of
// outbound calls; for whatever a handler returned, use [Classifier.HandlerError].
func (c *Classifier) GoError(ctx context.Context, err error, method string, idempotent bool) (*toolerr.Error, bool) {
	return c.goError(ctx, err, method, idempotent, false)
}

// HandlerError classifies a Go error a handler of this service returned.
// With evidence of an outbound call ([Outbound]: a *url.Error, a
// *net.OpError, a TLS error) it is [Classifier.GoError]. Without, the error
// is the service's own: a deadline is TOOL_TIMEOUT (retryable only for an
// idempotent call), a cancellation CANCELLED, and a reset or an EOF
// INTERNAL_ERROR; never an UPSTREAM_* code. ok is false when no rule knows
// err.
func (c *Classifier) HandlerError(ctx context.Context, err error, method string, idempotent bool) (*toolerr.Error, bool) {
	return c.goError(ctx, err, method, idempotent, true)
}

// goError is [Classifier.GoError] and, when handler says a handler of this
// service returned err, [Classifier.HandlerError]. A toolerr error is
// itself, and an error a mapper reads is evidence of a downstream by
// itself; only a handler's error without such evidence (Outbound) is
// read as the service's own, by the local rules.
func (c *Classifier) goError(ctx context.Context, err error, method string, idempotent, handler bool) (*toolerr.Error, bool) {
	if err == nil {
		return nil, false
	}
	if e, ok := toolerr.From(err); ok {
		return e, true
	}
	if o, ok := c.mapError(err); ok {
		// A typed error of an SDK, a gRPC call or a driver: evidence of a
		// downstream by itself.
		o.Method, o.Idempotent = method, idempotent
		return c.Classify(ctx, o), true
	}
	local := false
	if handler {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			// http.MaxBytesReader cut the request body: the caller sent too much.
			return c.Classify(ctx, Outcome{Method: method, Idempotent: idempotent, Status: http.StatusRequestEntityTooLarge, Err: err, Local: true}), true
		}
		local = !Outbound(err)
	}
	rules := goErrorRow
	if local {
		rules = localGoRow
	}
	if _, ok := rules(err); !ok {
		return nil, false
	}
	return c.Classify(ctx, Outcome{Method: method, Idempotent: idempotent, Err: err, Local: local}), true
}

// details returns the vendor details that may reach the error: numbers and
// booleans as they are, strings through the message filter (none without
// one), nothing else.
func (c *Classifier) details(in map[string]any) map[string]any {
	var out map[string]any
	for k, v := range in {
		switch s := v.(type) {
		case string:
			if c.filter == nil || s == "" {
				continue
			}
			f := c.filter(s)
			if f == "" {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(in))
			}
			if f == s {
				out[k] = v // unchanged by the filter: no new interface value
			} else {
				out[k] = f
			}
		case bool, int, int64, float64:
			if out == nil {
				out = make(map[string]any, len(in))
			}
			out[k] = v
		}
	}
	return out
}

// invalidReason is a violation's reason when the vendor's may not be shown.
const invalidReason = "is invalid"

// violations returns the vendor violations that may reach the error (see
// Outcome.Violations).
func (c *Classifier) violations(in []toolerr.Violation) []toolerr.Violation {
	var out []toolerr.Violation
	for _, v := range in {
		if len(out) == toolerr.MaxViolations {
			break
		}
		field := ""
		switch {
		case v.Field == "":
		case c.filter != nil:
			field = textcut.AtRune(c.filter(v.Field), toolerr.MaxFieldLen)
		case plainToken(v.Field, toolerr.MaxFieldLen):
			field = v.Field
		default:
			continue // a field that cannot be shown: the violation says nothing
		}
		reason := invalidReason
		if c.filter != nil && v.Reason != "" {
			if r := textcut.AtRune(c.filter(v.Reason), toolerr.MaxReasonLen); r != "" {
				reason = r
			}
		}
		out = append(out, toolerr.Violation{Field: field, Reason: reason})
	}
	return out
}

// plainToken reports whether s is short printable ASCII with no spaces,
// quotes or angle brackets: safe to show as an identifier without filtering.
func plainToken(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; b <= ' ' || b >= 0x7f || b == '"' || b == '\'' || b == '<' || b == '>' || b == '\\' {
			return false
		}
	}
	return true
}

// vendorToken returns a vendor's code or request id as the error's
// upstream carries it: a plain token of at most max bytes that the message
// filter leaves as it is, else "". A value the filter changes held a
// secret, or something else no id holds, and is no use as an id.
func (c *Classifier) vendorToken(s string, max int) string {
	if !plainToken(s, max) || c.filter != nil && c.filter(s) != s {
		return ""
	}
	return s
}
