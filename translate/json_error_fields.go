package translate

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// The fields of a JSON error object the generic translators and several
// vendors read: the offending input, retry advice, a delay, a code that is
// not the status, the request id. The object is read member by member, so
// a member of an unexpected type is skipped rather than failing the whole
// body.

// offendingField returns the offending input an error object names: field,
// param, pointer, a JSON:API source.pointer or a FastAPI loc. ("path" is
// left out: Spring and others put the request path there.)
func offendingField(o jsonObject) string {
	if f := o.str("field", "param", "pointer", "parameter", "property"); f != "" && isCode(f) {
		return f
	}
	if src := o.obj("source"); src != nil {
		if f := src.str("pointer", "parameter"); isCode(f) {
			return f
		}
	}
	return fastAPILoc(o)
}

// fastAPILoc joins a FastAPI/Pydantic "loc" (["body", "items", 0, "price"])
// into a dotted path without its request part ("items.0.price").
func fastAPILoc(o jsonObject) string {
	parts := walkArray(o.get("loc"), 33)
	if parts == nil || len(parts) > 32 {
		return ""
	}
	var b strings.Builder
	for i, p := range parts {
		s, ok := decodeString(p)
		if !ok {
			n, isNumber := numberOf(p)
			if !isNumber {
				return ""
			}
			s = strconv.FormatFloat(n, 'f', -1, 64)
		}
		if i == 0 && len(parts) > 1 {
			switch s {
			case "body", "query", "path", "header", "cookie":
				continue
			}
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	if f := b.String(); isCode(f) {
		return f
	}
	return ""
}

// retryableAdvice reads an explicit "retryable" boolean (a toolerr body, and
// the APIs that say so) into retry advice.
func retryableAdvice(o jsonObject) classify.RetryAdvice {
	v, ok := o.boolean("retryable")
	switch {
	case !ok:
		return classify.AdviceNone
	case v:
		return classify.AdviceRetry
	}
	return classify.AdviceDoNotRetry
}

// bodyDelayMS reads a body delay in milliseconds ("retry_after_ms": 1500).
func bodyDelayMS(o jsonObject, k string) time.Duration {
	raw := bytes.TrimSpace(o.get(k))
	if len(raw) == 0 || raw[0] == '"' {
		return 0
	}
	d, _ := classify.ParseDelay(classify.Milliseconds, string(raw), time.Now(), 0)
	return d
}

// dropStatusCode drops a numeric code that only repeats the HTTP status
// ({"error": {"code": 404}}): it says nothing the status does not.
func dropStatusCode(code string, status int) string {
	if code == strconv.Itoa(status) {
		return ""
	}
	return code
}

// requestIDOf returns the request id a body or the X-Request-Id header
// gives.
func requestIDOf(p jsonObject, r *Raw) string {
	if id := p.str("request_id", "requestId"); isCode(id) {
		return id
	}
	return strings.TrimSpace(canonheader.Value(r.Header, "X-Request-Id"))
}
