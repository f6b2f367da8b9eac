package translate

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/classify"
)

// enterpriseTranslators returns this group's translators: Google APIs,
// Microsoft Graph, Salesforce and PayPal.
func enterpriseTranslators() []Translator {
	return []Translator{googleTranslator{}, msGraphTranslator{}, salesforceTranslator{}, payPalTranslator{}}
}

// The helpers below read JSON leniently for this group's translators: a
// member of the wrong type reads as absent instead of failing the whole
// body, so one odd member never hides the rest of an error.

// entMaxItems bounds how many items of a JSON array the group reads.
const entMaxItems = 16

// entObject decodes raw as a JSON object, or returns nil.
func entObject(raw json.RawMessage) map[string]json.RawMessage {
	b := trimLeftSpace(raw)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

// entArray decodes raw as a JSON array, or returns nil. At most
// entMaxItems items are kept.
func entArray(raw json.RawMessage) []json.RawMessage {
	b := trimLeftSpace(raw)
	if len(b) == 0 || b[0] != '[' {
		return nil
	}
	var a []json.RawMessage
	if json.Unmarshal(b, &a) != nil {
		return nil
	}
	if len(a) > entMaxItems {
		a = a[:entMaxItems]
	}
	return a
}

// entString returns the member key of m when it is a JSON string.
func entString(m map[string]json.RawMessage, key string) string {
	raw, ok := m[key]
	if !ok {
		return ""
	}
	b := trimLeftSpace(raw)
	if len(b) == 0 || b[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return ""
	}
	return s
}

// entInt returns the member key of m when it is a JSON integer that fits
// in an int32.
func entInt(m map[string]json.RawMessage, key string) (int, bool) {
	raw, ok := m[key]
	if !ok {
		return 0, false
	}
	var n int32
	if json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return int(n), true
}

// entStrings returns the string items of the JSON array member key of m.
func entStrings(m map[string]json.RawMessage, key string) []string {
	var out []string
	for _, item := range entArray(m[key]) {
		var s string
		if json.Unmarshal(item, &s) == nil && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// entBodyStart returns the first byte of the body after white space, or 0.
func entBodyStart(r *Raw) byte {
	b := trimLeftSpace(r.Body)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// entScreaming reports whether s looks like a SCREAMING_SNAKE error name
// ("REQUIRED_FIELD_MISSING"): upper-case letters, digits and underscores,
// starting with a letter.
func entScreaming(s string) bool {
	if s == "" || len(s) > 128 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// entUnknownOutcome returns the retry advice for a vendor's "the server
// failed" code (an internal error, a deadline): the request may have been
// processed before the failure, so a retry is safe only for an idempotent
// method or a request that carried an idempotency key.
func entUnknownOutcome(r *Raw) classify.RetryAdvice {
	if r.Idempotent {
		return classify.AdviceNone
	}
	switch strings.ToUpper(r.Method) {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return classify.AdviceNone
	}
	return classify.AdviceDoNotRetry
}

// entSetDetail sets details[key] = value when value is not empty, creating
// the map on first use.
func entSetDetail(details *map[string]any, key, value string) {
	if value == "" {
		return
	}
	if *details == nil {
		*details = map[string]any{}
	}
	(*details)[key] = value
}
