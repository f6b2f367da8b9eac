package translate

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/toolerr/toolerr/classify"
)

// Helpers of the generic JSON translators: a JSON object read member by
// member, so a member of an unexpected type is skipped rather than failing
// the whole body.

const (
	// genMessageMax bounds a message the generic translators keep.
	genMessageMax = 1024
	// genCodeMax bounds a vendor code: longer "codes" are prose.
	genCodeMax = 128
)

// genObject is a JSON object whose members are decoded on demand.
type genObject map[string]json.RawMessage

// genParseObject decodes b as a JSON object; ok is false for anything else.
func genParseObject(b []byte) (genObject, bool) {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var o genObject
	if json.Unmarshal(b, &o) != nil || o == nil {
		return nil, false
	}
	return o, true
}

// has reports whether the object has member k, whatever its value.
func (o genObject) has(k string) bool {
	_, ok := o[k]
	return ok
}

// str returns the first of keys whose value is a non-empty JSON string,
// trimmed and cut to genMessageMax bytes, or "".
func (o genObject) str(keys ...string) string {
	for _, k := range keys {
		raw, ok := o[k]
		if !ok || len(raw) == 0 || raw[0] != '"' {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s = strings.TrimSpace(s); s != "" {
				return gwCut(strings.ToValidUTF8(s, "\uFFFD"), genMessageMax)
			}
		}
	}
	return ""
}

// code returns the first of keys whose value is a code: a string without
// white space, or an integer as written ("404", "10001"). Prose, objects and
// over-long values are not codes.
func (o genObject) code(keys ...string) string {
	for _, k := range keys {
		raw := bytes.TrimSpace(o[k])
		if len(raw) == 0 {
			continue
		}
		if raw[0] == '"' {
			if s := o.str(k); genIsCode(s) {
				return s
			}
			continue
		}
		if genIsInteger(raw) && len(raw) <= 20 {
			return string(raw)
		}
	}
	return ""
}

// obj returns member k as an object.
func (o genObject) obj(k string) (genObject, bool) {
	raw, ok := o[k]
	if !ok {
		return nil, false
	}
	return genParseObject(raw)
}

// first returns the first element of the array member k, as an object.
func (o genObject) first(k string) (genObject, bool) {
	raw := bytes.TrimSpace(o[k])
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	return genFirstElement(raw)
}

// boolean returns member k as a boolean; ok is false when it is not one.
func (o genObject) boolean(k string) (v, ok bool) {
	switch string(bytes.TrimSpace(o[k])) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// genFirstElement decodes the first element of a JSON array as an object,
// without decoding the rest of the array.
func genFirstElement(raw []byte) (genObject, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil, false
	}
	if !dec.More() {
		return nil, false
	}
	var el json.RawMessage
	if dec.Decode(&el) != nil {
		return nil, false
	}
	return genParseObject(el)
}

// genFirstString returns the first element of the array member k when it is
// a string, as in {"errors": ["name is required"]}.
func genFirstString(o genObject, k string) string {
	raw := bytes.TrimSpace(o[k])
	if len(raw) == 0 || raw[0] != '[' {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil || !dec.More() {
		return ""
	}
	var s string
	if dec.Decode(&s) != nil {
		return ""
	}
	return gwCut(strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD")), genMessageMax)
}

// genIsCode reports whether s reads as a code rather than a sentence.
func genIsCode(s string) bool {
	if s == "" || len(s) > genCodeMax {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// genIsInteger reports whether b is a JSON integer.
func genIsInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isDigitByte(c) {
			return false
		}
	}
	return true
}

// genField returns the offending input an error object names: field, param,
// pointer, a JSON:API source.pointer or a FastAPI loc. ("path" is left out:
// Spring and others put the request path there.)
func genField(o genObject) string {
	if f := o.str("field", "param", "pointer", "parameter", "property"); f != "" && genIsCode(f) {
		return f
	}
	if src, ok := o.obj("source"); ok {
		if f := src.str("pointer", "parameter"); genIsCode(f) {
			return f
		}
	}
	return genLoc(o)
}

// genLoc joins a FastAPI/Pydantic "loc" (["body", "items", 0, "price"]) into
// a dotted path without its request part ("items.0.price").
func genLoc(o genObject) string {
	raw := bytes.TrimSpace(o["loc"])
	if len(raw) == 0 || raw[0] != '[' {
		return ""
	}
	var parts []any
	if json.Unmarshal(raw, &parts) != nil || len(parts) > 32 {
		return ""
	}
	var b strings.Builder
	for i, p := range parts {
		var s string
		switch p := p.(type) {
		case string:
			s = p
		case float64:
			s = strconv.FormatFloat(p, 'f', -1, 64)
		default:
			return ""
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
	if f := b.String(); genIsCode(f) {
		return f
	}
	return ""
}

// genRetryAdvice reads an explicit "retryable" boolean (a toolerr body, and
// the APIs that say so) into retry advice.
func genRetryAdvice(o genObject) classify.RetryAdvice {
	v, ok := o.boolean("retryable")
	switch {
	case !ok:
		return classify.AdviceNone
	case v:
		return classify.AdviceRetry
	}
	return classify.AdviceDoNotRetry
}

// genDelayMS reads a body delay in milliseconds ("retry_after_ms": 1500).
func genDelayMS(o genObject, k string) time.Duration {
	raw := bytes.TrimSpace(o[k])
	if len(raw) == 0 || raw[0] == '"' {
		return 0
	}
	d, _ := classify.ParseDelay(classify.Milliseconds, string(raw), time.Now(), 0)
	return d
}

// genStatusCode drops a numeric code that only repeats the HTTP status
// ({"error": {"code": 404}}): it says nothing the status does not.
func genStatusCode(code string, status int) string {
	if code == strconv.Itoa(status) {
		return ""
	}
	return code
}

// genDocURL returns u when it is an http(s) link, for details["doc_url"].
func genDocURL(u string) string {
	l := strings.ToLower(u)
	if (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")) && genIsCode(u) {
		return u
	}
	return ""
}
