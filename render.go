package toolerr

import (
	"strconv"
	"strings"
	"time"
)

// AppendJSON appends the RFC 9457 problem object of e to dst: the standard
// members, then the contract's extension members, flat. Empty optional
// members are omitted. The rendering always satisfies [Validate] when e has
// a request id: text members are cut to their limits at a rune boundary, a
// JSON-valued member whose encoding is over its limit or not encodable is
// dropped, at most [MaxItems] item errors are written, and a missing
// required member gets its contract default (category internal, severity
// error, status 500, the code as title, the title as detail).
//
// Only a valid request id and trace id are written (see [ValidRequestID] and
// [ValidTraceID]); [Write] always supplies a valid request id. A docs_url
// that is not an absolute http(s) URL is left out. The Go cause is never
// written.
func (e *Error) AppendJSON(dst []byte) []byte {
	return e.appendMembers(append(dst, '{'), -1)
}

// AppendEnvelope appends the envelope rendering {"ok":false,"error":{…}}.
func (e *Error) AppendEnvelope(dst []byte) []byte {
	dst = append(dst, `{"ok":false,"error":`...)
	dst = e.AppendJSON(dst)
	return append(dst, '}')
}

// MarshalJSON implements json.Marshaler with the problem object rendering.
func (e *Error) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(make([]byte, 0, 1024)), nil
}

// appendMembers writes the members of e after an opening brace and closes
// the object. index >= 0 renders an item of a batch: the index comes first
// and the request-scoped members (ids, instance, items) are left out.
func (e *Error) appendMembers(dst []byte, index int) []byte {
	code := e.Code
	if !ValidCode(code) {
		code = CodeInternal
	}
	title := e.Title
	if title == "" {
		title = code
	}
	if index >= 0 {
		dst = append(dst, `"index":`...)
		dst = strconv.AppendInt(dst, int64(index), 10)
		dst = append(dst, ',')
	}
	dst = append(dst, `"type":`...)
	if e.Type != "" {
		dst = appendString(dst, e.Type, MaxURILen)
	} else {
		dst = append(dst, `"urn:toolerr:`...)
		dst = append(dst, code...)
		dst = append(dst, '"')
	}
	d := e.def
	dst = append(dst, `,"title":`...)
	dst = d.appendText(dst, title, MaxTitleLen)
	status := e.Status
	if status < 400 || status > 599 {
		status = 500
	}
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(status), 10)
	detail := e.Detail
	if detail == "" {
		detail = title
	}
	dst = appendMember(dst, "detail", detail, MaxDetailLen)
	if index < 0 {
		dst = appendOptional(dst, "instance", e.Instance, MaxURILen)
	}
	dst = append(dst, `,"code":"`...)
	dst = append(dst, code...)
	category := e.Category
	if !category.Valid() {
		category = CategoryInternal
	}
	dst = append(dst, `","category":"`...)
	dst = append(dst, category...)
	severity := e.Severity
	if !severity.Valid() {
		severity = SeverityError
	}
	dst = append(dst, `","severity":"`...)
	dst = append(dst, severity...)
	// Retryable only in a category that can be.
	retryable := e.Retryable && category.CanRetry()
	dst = append(dst, `","retryable":`...)
	dst = strconv.AppendBool(dst, retryable)
	if retryAfter := e.renderedRetryAfter(); retryAfter > 0 {
		dst = append(dst, `,"retry_after_ms":`...)
		dst = strconv.AppendInt(dst, ceilMillis(retryAfter), 10)
	}
	dst = appendOptional(dst, "field", e.Field, MaxFieldLen)
	dst = appendValueMember(dst, "allowed_values", e.AllowedValues, MaxValueLen)
	dst = appendValueMember(dst, "suggested_value", e.SuggestedValue, MaxValueLen)
	hint, humanHint, suggestions := e.RenderedHints()
	if hint != "" {
		dst = append(dst, `,"hint":`...)
		dst = d.appendText(dst, hint, MaxHintLen)
	}
	if humanHint != "" {
		dst = append(dst, `,"human_hint":`...)
		dst = d.appendText(dst, humanHint, MaxHintLen)
	}
	dst = appendList(dst, "suggestions", suggestions, nil, d)
	dst = appendList(dst, "actions", e.Actions, ValidAction, nil)
	if isHTTPURL(e.DocsURL) {
		dst = appendMember(dst, "docs_url", e.DocsURL, MaxURILen)
	}
	dst = appendList(dst, "related_codes", e.RelatedCodes, ValidCode, nil)
	if len(e.Details) > 0 {
		dst = appendValueMember(dst, "details", e.Details, MaxObjectLen)
	}
	dst = appendValueMember(dst, "example_request", e.ExampleRequest, MaxObjectLen)
	dst = appendViolations(dst, e.Violations)
	if p := e.RetryPolicy; p != nil && retryable && (p.Strategy == StrategyExponential || p.Strategy == StrategyRetryAfter) {
		dst = append(dst, `,"retry_policy":{"strategy":`...)
		dst = appendString(dst, string(p.Strategy), MaxNameLen)
		dst = append(dst, `,"base_ms":`...)
		dst = strconv.AppendInt(dst, ceilMillis(p.BaseDelay), 10)
		dst = append(dst, `,"max_attempts":`...)
		dst = strconv.AppendInt(dst, min(int64(max(p.MaxAttempts, 1)), maxCount), 10)
		dst = append(dst, `,"idempotency_required":`...)
		dst = strconv.AppendBool(dst, p.IdempotencyRequired)
		dst = append(dst, '}')
	}
	if in := e.Intent; in != nil {
		dst = append(dst, `,"intent":{"operation":`...)
		dst = appendString(dst, in.Operation, MaxIntentFieldLen)
		dst = appendOptional(dst, "resource_id", in.ResourceID, MaxIntentFieldLen)
		dst = appendOptional(dst, "state", in.State, MaxIntentFieldLen)
		dst = appendOptional(dst, "recovery", in.Recovery, MaxIntentFieldLen)
		dst = append(dst, '}')
	}
	dst = appendOptional(dst, "tool", e.Tool, MaxNameLen)
	if u := e.Upstream; u != nil {
		dst = append(dst, `,"upstream":{"vendor":`...)
		dst = appendString(dst, u.Vendor, MaxNameLen)
		if u.Status >= 100 && u.Status <= 599 {
			dst = append(dst, `,"status":`...)
			dst = strconv.AppendInt(dst, int64(u.Status), 10)
		}
		dst = appendOptional(dst, "code", u.Code, MaxNameLen)
		if ValidRequestID(u.RequestID) { // a vendor's id of another shape is not shown
			dst = appendMember(dst, "request_id", u.RequestID, 0)
		}
		if u.Attempts > 0 {
			dst = append(dst, `,"attempts":`...)
			dst = strconv.AppendInt(dst, min(int64(u.Attempts), maxCount), 10)
		}
		dst = append(dst, '}')
	}
	if index < 0 {
		dst = appendItems(dst, e.Errors)
		if ValidTraceID(e.TraceID) {
			dst = appendMember(dst, "trace_id", e.TraceID, 0)
		}
		if ValidRequestID(e.RequestID) {
			dst = appendMember(dst, "request_id", e.RequestID, 0)
		}
	}
	return append(dst, '}')
}

// appendViolations appends "violations" with at most [MaxViolations]
// entries; nothing when vs is empty.
func appendViolations(dst []byte, vs []Violation) []byte {
	for i, v := range vs[:min(len(vs), MaxViolations)] {
		if i == 0 {
			dst = append(dst, `,"violations":[{"field":`...)
		} else {
			dst = append(dst, `,{"field":`...)
		}
		dst = appendString(dst, v.Field, MaxFieldLen)
		reason := v.Reason
		if reason == "" {
			reason = "is invalid"
		}
		dst = appendMember(dst, "reason", reason, MaxReasonLen)
		dst = appendValueMember(dst, "allowed_values", v.AllowedValues, MaxValueLen)
		dst = appendValueMember(dst, "suggested_value", v.SuggestedValue, MaxValueLen)
		dst = append(dst, '}')
	}
	if len(vs) > 0 {
		dst = append(dst, ']')
	}
	return dst
}

func appendItems(dst []byte, items []ItemError) []byte {
	n := 0
	for _, it := range items {
		if it.Err == nil || it.Index < 0 || int64(it.Index) > maxCount {
			continue
		}
		if n == MaxItems {
			break
		}
		if n == 0 {
			dst = append(dst, `,"errors":[`...)
		} else {
			dst = append(dst, ',')
		}
		dst = it.Err.appendMembers(append(dst, '{'), it.Index)
		n++
	}
	if n > 0 {
		dst = append(dst, ']')
	}
	return dst
}

// appendMember appends ,"name":"value".
func appendMember(dst []byte, name, value string, max int) []byte {
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return appendString(dst, value, max)
}

// appendOptional appends the member unless value is empty.
func appendOptional(dst []byte, name, value string, max int) []byte {
	if value == "" {
		return dst
	}
	return appendMember(dst, name, value, max)
}

// appendList appends a list of strings, at most MaxListLen entries, skipping
// entries that are empty or that valid rejects; d's encodings are used for
// its texts (d may be nil).
func appendList(dst []byte, name string, list []string, valid func(string) bool, d *Def) []byte {
	n := 0
	for _, s := range list {
		if s == "" || (valid != nil && !valid(s)) {
			continue
		}
		if n == MaxListLen {
			break
		}
		if n == 0 {
			dst = append(dst, ',', '"')
			dst = append(dst, name...)
			dst = append(dst, `":[`...)
		} else {
			dst = append(dst, ',')
		}
		dst = d.appendText(dst, s, MaxListItemLen)
		n++
	}
	if n > 0 {
		dst = append(dst, ']')
	}
	return dst
}

// appendValueMember appends a JSON-valued member, or nothing when v is nil,
// not encodable, or longer than max once encoded.
func appendValueMember(dst []byte, name string, v any, max int) []byte {
	if v == nil {
		return dst
	}
	mark := len(dst)
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	valueStart := len(dst)
	dst, err := appendValue(dst, v)
	if err != nil || len(dst)-valueStart > max {
		return dst[:mark]
	}
	return dst
}

// defaultRateLimitDelay is the wait rendered for a retryable rate limit that
// carries neither a delay nor a retry policy with a base delay.
const defaultRateLimitDelay = time.Second

// renderedRetryAfter is the delay rendered as retry_after_ms, 0 for none:
// the error's own RetryAfter, else, since a retryable rate limit always says
// how long to wait, its retry policy's base delay or defaultRateLimitDelay.
// [Write] sets the Retry-After header from it too, so header and body agree.
func (e *Error) renderedRetryAfter() time.Duration {
	if e.RetryAfter > 0 {
		return e.RetryAfter
	}
	if !e.Retryable || e.Category != CategoryRateLimit {
		return 0
	}
	if p := e.RetryPolicy; p != nil && p.BaseDelay > 0 {
		return p.BaseDelay
	}
	return defaultRateLimitDelay
}

// ceilMillis converts d to whole milliseconds, rounding up, so a wait is
// never shortened by the encoding. It cannot overflow.
func ceilMillis(d time.Duration) int64 {
	return ceilDiv(d, time.Millisecond)
}

// ceilDiv returns d/unit rounded up, 0 for d <= 0.
func ceilDiv(d, unit time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	q := d / unit
	if d%unit != 0 {
		q++
	}
	return int64(q)
}

// isHTTPURL reports whether s is an absolute http(s) URL with a host and
// nothing that needs escaping. Rendering and [Validate] both use it for
// docs_url.
func isHTTPURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	if !ok || len(s) > MaxURILen {
		return false
	}
	host, _, _ := strings.Cut(rest, "/")
	host, _, _ = strings.Cut(host, "?")
	host, _, _ = strings.Cut(host, "#")
	if host == "" || strings.HasPrefix(host, "@") || strings.HasPrefix(host, ":") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; b <= ' ' || b >= 0x7f || b == '"' || b == '<' || b == '>' || b == '\\' {
			return false
		}
	}
	return true
}
