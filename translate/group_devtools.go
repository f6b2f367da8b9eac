package translate

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolerr/toolerr/classify"
)

// devToolsTranslators returns the developer-tools group: Stripe, GitHub,
// Slack, OpenAI and Anthropic. Each recognises only its own responses, so
// their order does not matter.
func devToolsTranslators() []Translator {
	return []Translator{
		stripeTranslator{},
		githubTranslator{},
		slackTranslator{},
		openAITranslator{},
		anthropicTranslator{},
	}
}

// devMaxText bounds the vendor text (messages, fields, details) the group
// keeps; the classifier's filter sees no more than this.
const devMaxText = 2048

// devObject decodes b as one JSON object into its raw members. ok is false
// for anything else: another JSON value, malformed or truncated JSON.
func devObject(b []byte) (map[string]json.RawMessage, bool) {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}

// devMember returns the member key of m when it is a JSON object.
func devMember(m map[string]json.RawMessage, key string) (map[string]json.RawMessage, bool) {
	raw, ok := m[key]
	if !ok {
		return nil, false
	}
	return devObject(raw)
}

// devString returns the member key of m when it is a JSON string, trimmed
// and cut to devMaxText bytes; "" for any other type, null or absence.
func devString(m map[string]json.RawMessage, key string) string {
	raw := trimLeftSpace(m[key])
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	return devItemString(raw)
}

// devCode returns the member key of m as an error code: a JSON string, or
// the literal of a JSON number (some vendors send numeric codes).
func devCode(m map[string]json.RawMessage, key string) string {
	raw := trimLeftSpace(m[key])
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return devString(m, key)
	}
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return ""
	}
	return devCut(n.String(), devMaxText)
}

// devBool returns the member key of m as a boolean; present is false when
// it is absent or not a boolean.
func devBool(m map[string]json.RawMessage, key string) (value, present bool) {
	raw, ok := m[key]
	if !ok {
		return false, false
	}
	if json.Unmarshal(raw, &value) != nil {
		return false, false
	}
	return value, true
}

// devArray returns the member key of m as the raw items of a JSON array,
// nil when it is not one.
func devArray(m map[string]json.RawMessage, key string) []json.RawMessage {
	raw := trimLeftSpace(m[key])
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	return items
}

// devItemString returns a raw JSON value as a string when it is one.
func devItemString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return devCut(strings.TrimSpace(s), devMaxText)
}

// devCut bounds s to at most n bytes without splitting a UTF-8 sequence.
func devCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// devSetDetail adds a non-empty string fact to an outcome's details.
func devSetDetail(o *classify.Outcome, key, value string) {
	if value == "" {
		return
	}
	if o.Details == nil {
		o.Details = map[string]any{}
	}
	o.Details[key] = value
}

// devIdempotentMethod reports whether RFC 9110 defines method as
// idempotent; the empty method is GET.
func devIdempotentMethod(method string) bool {
	switch strings.ToUpper(method) {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace,
		http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// devHasRetryDelay reports whether the response carries a retry-after
// header the classifier reads (it then wins, and a translator sets no
// Delay of its own).
func devHasRetryDelay(r *Raw) bool {
	_, ok := classify.RetryDelay(r.Header, devNow(r), 0)
	return ok
}

// devNow is the response's own clock: its Date header when it parses, so
// that absolute reset instants are read against the server's time; else
// the local clock.
func devNow(r *Raw) time.Time {
	if d := r.Header.Get("Date"); d != "" {
		if t, err := http.ParseTime(d); err == nil {
			return t
		}
	}
	return time.Now()
}

// devToken reports whether s is a short snake_case error token such as
// "channel_not_found": lower-case ASCII letters, digits and underscores,
// starting with a letter.
func devToken(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// devTypedError reads the {"error":{"type","code","message","param"}} body
// that Stripe and OpenAI share: the error object, its type, and an outcome
// with the vendor code (code, else the type unless it is the catch-all
// invalid_request_error, which the status says better), message and field.
func devTypedError(r *Raw) (e map[string]json.RawMessage, typ string, o classify.Outcome, ok bool) {
	e = r.errorObject()
	if e == nil {
		return nil, "", o, false
	}
	typ, code, msg := devString(e, "type"), devCode(e, "code"), devString(e, "message")
	if typ == "" && code == "" && msg == "" {
		return nil, "", o, false
	}
	o = classify.Outcome{VendorCode: code, Message: msg, Field: devString(e, "param")}
	if o.VendorCode == "" && typ != "invalid_request_error" {
		o.VendorCode = typ
	}
	return e, typ, o, true
}
