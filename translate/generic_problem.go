package translate

import (
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// problemGeneric reads RFC 9457 (formerly RFC 7807) problem details:
// {"type", "title", "status", "detail", "instance"} with the common
// extensions: a "code", "errors" (RFC 9457's example: detail and pointer),
// "invalid-params" (RFC 7807's example: name and reason). A toolerr error
// body is a problem too: its code, field, request_id, retryable and
// retry_after_ms are read. Vendor() is "": the status and the explicit
// retry advice decide the class, and any code is reported as unmapped.
type problemGeneric struct{}

// Vendor returns "": a generic format.
func (problemGeneric) Vendor() string { return "" }

// Hosts returns nil.
func (problemGeneric) Hosts() []string { return nil }

// Recognizes returns false: generic translators are tried for every
// response, not by recognition.
func (problemGeneric) Recognizes(*Raw) bool { return false }

// Codes returns nil: a generic format has no code table.
func (problemGeneric) Codes() map[string]string { return nil }

// Translate reads a problem document of a failure (status >= 400).
func (problemGeneric) Translate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || !r.IsJSON() {
		return classify.Outcome{}, false
	}
	p := r.object()
	ok := p != nil
	if !ok || (r.ContentType() != "application/problem+json" && !genIsProblem(p)) {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{
		VendorCode: genStatusCode(p.code("code", "error_code", "errorCode"), r.Status),
		Message:    p.str("detail"),
		Field:      genField(p),
		RequestID:  genRequestID(p, r),
		Delay:      genDelayMS(p, "retry_after_ms"),
		Evidence:   classify.Evidence{Retry: genRetryAdvice(p)},
	}
	item := p.first("errors")
	if item == nil {
		item = p.first("invalid-params")
	}
	if item != nil {
		if o.VendorCode == "" {
			o.VendorCode = genStatusCode(item.code("code"), r.Status)
		}
		if o.Field == "" {
			o.Field = genField(item)
			if o.Field == "" {
				if f := item.str("name"); isCode(f) {
					o.Field = f
				}
			}
		}
		if o.Message == "" {
			o.Message = item.str("detail", "message", "reason")
		}
	}
	if o.Message == "" {
		o.Message = p.str("title")
	}
	if u := docURL(p.str("type")); u != "" {
		o.Details = map[string]any{"doc_url": u}
	}
	return o, true
}

// genIsProblem reports whether an object served without the problem media
// type is still a problem document: a title with a type, status or detail,
// or a toolerr error (code, category, retryable).
func genIsProblem(p jsonObject) bool {
	if _, ok := p.boolean("retryable"); ok && p.str("category") != "" && p.code("code") != "" {
		return true
	}
	if p.str("title") == "" {
		return false
	}
	return p.str("type") != "" || p.str("detail") != "" || isInteger(p.get("status"))
}

// genRequestID returns the request id a body or the X-Request-Id header
// gives.
func genRequestID(p jsonObject, r *Raw) string {
	if id := p.str("request_id", "requestId"); isCode(id) {
		return id
	}
	return strings.TrimSpace(canonheader.Value(r.Header, "X-Request-Id"))
}
