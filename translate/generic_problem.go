package translate

import (
	"github.com/toolerr/toolerr/classify"
)

// problemGenericTranslate reads RFC 9457 (formerly RFC 7807) problem details:
// {"type", "title", "status", "detail", "instance"} with the common
// extensions: a "code", "errors" (RFC 9457's example: detail and pointer),
// "invalid-params" (RFC 7807's example: name and reason). A toolerr error
// body is a problem too: its code, field, request_id, retryable and
// retry_after_ms are read. Its row has no name: the status and the explicit
// retry advice decide the class, and any code is reported as unmapped.
//
// It reads a problem document of a failure (status >= 400).
func problemGenericTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || !r.IsJSON() {
		return classify.Outcome{}, false
	}
	p := r.object()
	ok := p != nil
	if !ok || (r.ContentType() != "application/problem+json" && !isProblemDocument(p)) {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{
		VendorCode: dropStatusCode(p.code("code", "error_code", "errorCode"), r.Status),
		Message:    p.str("detail"),
		Field:      offendingField(p),
		RequestID:  requestIDOf(p, r),
		Delay:      bodyDelayMS(p, "retry_after_ms"),
		Evidence:   classify.Evidence{Retry: retryableAdvice(p)},
	}
	item := p.first("errors")
	if item == nil {
		item = p.first("invalid-params")
	}
	if item != nil {
		if o.VendorCode == "" {
			o.VendorCode = dropStatusCode(item.code("code"), r.Status)
		}
		if o.Field == "" {
			o.Field = offendingField(item)
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

// isProblemDocument reports whether an object served without the problem media
// type is still a problem document: a title with a type, status or detail,
// or a toolerr error (code, category, retryable).
func isProblemDocument(p jsonObject) bool {
	if _, ok := p.boolean("retryable"); ok && p.str("category") != "" && p.code("code") != "" {
		return true
	}
	if p.str("title") == "" {
		return false
	}
	return p.str("type") != "" || p.str("detail") != "" || isInteger(p.get("status"))
}
