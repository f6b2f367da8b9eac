package toolresult

import (
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// ParseObservation reads text as toolerr's observation of an error
// (toolerr.Error.AppendObservation), plain or Markdown, as a tool served
// under toolerr's middleware sends it for Accept: text/plain or
// text/markdown, and as an MCP tool result's text content carries it. It
// returns the error and true, or nil and false when text is not an
// observation.
//
// Recognition is strict: a code line with a valid code and category
// ("CODE (category): detail", in Markdown "**CODE** (category): detail"),
// then the retryable line, then only known member lines ("name: value",
// in Markdown "- name: value"), each at most once (violation lines
// excepted) and in the order the renderer writes them, every value well
// formed (JSON values decode within the contract's size limits, actions
// and the request id are valid, retryable only in a category that can be
// retried), all lines in one form, and no control character. Anything
// else, an observation with a line of text after it say, is not one.
//
// The error carries what the text says: code, category, detail,
// retryable, retry_after_ms, max_attempts (as RetryPolicy.MaxAttempts),
// field, allowed_values, suggested_value, violations, example_request,
// details, actions, hint, human_hint, intent and request_id, with numbers
// in JSON values as json.Number. Where the first violation is the one
// field names, the top-level allowed_values and suggested_value are that
// violation's, as the renderer leaves them to its line. From the built-in
// registry's definition of a known code come type, title, severity,
// status, docs_url, related_codes and the retry policy's strategy and
// base; an unknown code gets "urn:toolerr:CODE", a title made of its
// words, severity error and no status. Nothing else is filled in: a
// member the text does not carry is absent (no hint, no human_hint, no
// suggestions).
//
// What the renderer cannot tell apart is read one way: in plain text a
// violation's pointer ends at its first space, unless it is the pointer
// the field line names ("/first name" cannot otherwise be told from a
// pointer and a reason; the Markdown form can), and a text
// that itself holds ", state: " in an intent line, or a reason that ends
// like an inline value, is split there.
//
// The text came from the network: every string of the error is sanitized
// (package middleware/sanitize, defaults) before it is returned. Work is
// bounded: text over toolerr.MaxBodyLen, a line over 64 KiB or more than
// toolerr.MaxViolations violations is not an observation. Safe for
// concurrent use.
func ParseObservation(text string) (*toolerr.Error, bool) {
	m, ok := parseObservation(text)
	if !ok {
		return nil, false
	}
	return sanitized(withRanges(m.toError())), true
}

// maxLine is the longest line of an observation: the longest the
// renderer writes, an example_request of toolerr.MaxObjectLen bytes in a
// Markdown code span whose fences are as long as it, fits.
const maxLine = 64 << 10

// obsMembers are the members an observation's lines carry.
type obsMembers struct {
	code               string
	category           toolerr.Category
	detail             string
	retryable          bool
	retryAfterMS       int64
	maxAttempts        int64
	field              string
	allowed            any
	suggested          any
	violations         []toolerr.Violation
	example            any
	details            map[string]any
	actions            []string
	hint, humanHint    string
	intent             *toolerr.Intent
	requestID          string
	hasRetryable       bool
	allowedSet, sugSet bool
}

// memberRank is the position of each member line in the renderer's order;
// a line whose member ranks below the previous line's is out of order.
var memberRank = map[string]int{
	"retryable":       1,
	"field":           2,
	"allowed_values":  3,
	"suggested_value": 4,
	"violation":       5,
	"example_request": 6,
	"details":         7,
	"actions":         8,
	"hint":            9,
	"human_hint":      10,
	"intent":          11,
	"request_id":      12,
}

// parseObservation reads the members of an observation, unsanitized.
func parseObservation(text string) (*obsMembers, bool) {
	if len(text) > toolerr.MaxBodyLen || !utf8.ValidString(text) || hasControl(text) {
		return nil, false
	}
	text = strings.TrimSuffix(text, "\n")
	first, rest, _ := strings.Cut(text, "\n")
	p := obsParser{md: strings.HasPrefix(first, "**")}
	m := &obsMembers{}
	if !p.codeLine(m, first) {
		return nil, false
	}
	rank := 0
	for line := range strings.SplitSeq(rest, "\n") {
		if len(line) > maxLine {
			return nil, false
		}
		if p.md {
			var ok bool
			if line, ok = strings.CutPrefix(line, "- "); !ok {
				return nil, false
			}
		}
		name, value, ok := strings.Cut(line, ": ")
		r := memberRank[name]
		if !ok || r == 0 || r < rank || r == rank && name != "violation" || rank == 0 && r != 1 {
			return nil, false
		}
		rank = r
		if !p.member(m, name, value) {
			return nil, false
		}
	}
	if !m.hasRetryable {
		return nil, false
	}
	if v := m.violations; len(v) > 0 && v[0].Field == m.field {
		// The renderer leaves the field's values to its violation's line.
		if !m.allowedSet {
			m.allowed = v[0].AllowedValues
		}
		if !m.sugSet {
			m.suggested = v[0].SuggestedValue
		}
	}
	return m, true
}

// hasControl reports whether s holds a character the renderer turns into
// a space (a control character, NEL, or a line or paragraph separator),
// line feeds excepted.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r == 0x85 || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

// obsParser reads the lines of one observation, plain or Markdown.
type obsParser struct {
	md bool
}

// codeLine reads "CODE (category)" with an optional ": detail", the code
// in bold in Markdown.
func (p obsParser) codeLine(m *obsMembers, line string) bool {
	if p.md {
		var ok bool
		if line, ok = strings.CutPrefix(line, "**"); !ok {
			return false
		}
	}
	sep := " ("
	if p.md {
		sep = "** ("
	}
	code, rest, ok := strings.Cut(line, sep)
	if !ok || !toolerr.ValidCode(code) {
		return false
	}
	category, rest, ok := strings.Cut(rest, ")")
	if !ok || !toolerr.Category(category).Valid() {
		return false
	}
	m.code, m.category = code, toolerr.Category(category)
	if rest == "" {
		return true
	}
	detail, ok := strings.CutPrefix(rest, ": ")
	if !ok {
		return false
	}
	m.detail = p.text(detail)
	return len(m.detail) <= toolerr.MaxDetailLen
}

// member reads the value of one member line into m.
func (p obsParser) member(m *obsMembers, name, value string) bool {
	var ok bool
	switch name {
	case "retryable":
		ok = p.retryable(m, value)
		m.hasRetryable = ok
	case "field":
		m.field, ok = p.code(value)
		ok = ok && len(m.field) <= toolerr.MaxFieldLen
	case "allowed_values":
		m.allowed, ok = p.json(value, toolerr.MaxValueLen)
		m.allowedSet = true
	case "suggested_value":
		m.suggested, ok = p.json(value, toolerr.MaxValueLen)
		m.sugSet = true
	case "violation":
		var v toolerr.Violation
		if v, ok = p.violation(value, m.field); ok && len(m.violations) < toolerr.MaxViolations {
			m.violations = append(m.violations, v)
		} else {
			ok = false
		}
	case "example_request":
		m.example, ok = p.json(value, toolerr.MaxObjectLen)
	case "details":
		var v any
		v, ok = p.json(value, toolerr.MaxObjectLen)
		m.details, _ = v.(map[string]any)
		ok = ok && len(m.details) > 0
	case "actions":
		m.actions, ok = p.actions(value)
	case "hint":
		m.hint = p.text(value)
		ok = len(m.hint) <= toolerr.MaxHintLen
	case "human_hint":
		m.humanHint = p.text(value)
		ok = len(m.humanHint) <= toolerr.MaxHintLen
	case "intent":
		m.intent, ok = p.intentLine(value)
	case "request_id":
		m.requestID, ok = p.code(value)
		ok = ok && toolerr.ValidRequestID(m.requestID)
	}
	return ok
}
