package toolerr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ObservationOptions adjusts [Error.AppendObservation].
type ObservationOptions struct {
	// HumanHint adds the human_hint line. Default false: the observation
	// is for the model, and human_hint is for the person it talks to.
	HumanHint bool
	// Markdown renders the same members as Markdown, for Accept:
	// text/markdown: the code line in bold, one "- name: value" item per
	// member, Markdown's punctuation in texts escaped so that no vendor
	// text becomes a link, an image or markup. Default false: plain text.
	Markdown bool
}

// Observation returns [Error.AppendObservation] with the default options, as
// a string.
func (e *Error) Observation() string {
	return string(e.AppendObservation(nil, ObservationOptions{}))
}

// AppendObservation appends the error as the text a model reads when its
// runtime hands it text rather than JSON members (OpenAI's function-call
// output, Anthropic's tool_result, LangGraph's ToolMessage, an MCP
// client's Content). It is deterministic and compact, and it keeps, under
// their wire names so that hints can point at them, every member an agent
// acts on: code and category, retryable with retry_after_ms and
// max_attempts, field, allowed_values and suggested_value, every
// violation (one line each; when the first is the one field names, its
// line carries the allowed and suggested values), example_request, details
// (facts for the next call) and actions, hint, intent and request_id;
// detail is kept when it says more than the title.
//
//	VALIDATION_FAILED (validation): limit must be between 1 and 100; got 500.
//	retryable: false
//	field: limit
//	allowed_values: {"minimum":1,"maximum":100}
//	suggested_value: 100
//	hint: Reduce limit to 100 or less and page with the returned cursor.
//	request_id: 4bf92f3577b34da6
//
// One member per line, "name: value"; values of allowed_values and
// suggested_value are JSON. Texts are cut to the contract's limits, with
// line breaks and control characters turned into spaces so that no value
// can start a line of its own. The error should already be sanitized, as
// it is under the middleware.
func (e *Error) AppendObservation(dst []byte, o ObservationOptions) []byte {
	if e == nil {
		return dst
	}
	code := e.Code
	if !ValidCode(code) {
		code = CodeInternal
	}
	category := e.Category
	if !category.Valid() {
		category = CategoryInternal
	}
	w := obsWriter{dst: dst, md: o.Markdown}
	if w.md {
		w.dst = append(w.dst, "**"...)
	}
	w.dst = append(w.dst, code...)
	if w.md {
		w.dst = append(w.dst, "**"...)
	}
	w.dst = append(w.dst, " ("...)
	w.dst = append(w.dst, category...)
	w.dst = append(w.dst, ')')
	if e.Detail != "" && e.Detail != e.Title {
		w.dst = append(w.dst, ": "...)
		w.text(e.Detail, MaxDetailLen)
	}
	retryable := e.Retryable && category.CanRetry()
	w.line("retryable")
	w.dst = strconv.AppendBool(w.dst, retryable)
	if d := e.renderedRetryAfter(); d > 0 {
		w.dst = append(w.dst, ", retry_after_ms: "...)
		w.dst = strconv.AppendInt(w.dst, ceilMillis(d), 10)
	}
	if p := e.RetryPolicy; p != nil && retryable {
		w.dst = append(w.dst, ", max_attempts: "...)
		w.dst = strconv.AppendInt(w.dst, min(int64(max(p.MaxAttempts, 1)), maxCount), 10)
	}
	if e.Field != "" {
		w.line("field")
		w.code(e.Field, MaxFieldLen)
	}
	if !listsViolations(e.Field, e.Violations) || e.Violations[0].Field != e.Field {
		// Otherwise the first violation's line says them.
		w.value("allowed_values", e.AllowedValues, MaxValueLen)
		w.value("suggested_value", e.SuggestedValue, MaxValueLen)
	}
	w.violations(e.Field, e.Violations)
	w.value("example_request", e.ExampleRequest, MaxObjectLen)
	if len(e.Details) > 0 {
		w.value("details", e.Details, MaxObjectLen)
	}
	if actions := validActions(e.Actions); len(actions) > 0 {
		w.line("actions")
		for i, a := range actions {
			if i > 0 {
				w.dst = append(w.dst, ", "...)
			}
			w.code(a, MaxListItemLen)
		}
	}
	hint, humanHint, _ := e.RenderedHints()
	if hint != "" {
		w.line("hint")
		w.text(hint, MaxHintLen)
	}
	if o.HumanHint && humanHint != "" {
		w.line("human_hint")
		w.text(humanHint, MaxHintLen)
	}
	if in := e.Intent; in != nil && in.Operation != "" {
		w.line("intent")
		w.text(in.Operation, MaxIntentFieldLen)
		for _, f := range [...]struct{ name, v string }{{"resource_id", in.ResourceID}, {"state", in.State}, {"recovery", in.Recovery}} {
			if f.v != "" {
				w.dst = append(w.dst, ", "...)
				w.dst = append(w.dst, f.name...)
				w.dst = append(w.dst, ": "...)
				w.text(f.v, MaxIntentFieldLen)
			}
		}
	}
	if ValidRequestID(e.RequestID) {
		w.line("request_id")
		w.code(e.RequestID, MaxIDLen)
	}
	return w.dst
}

// obsWriter appends the lines of an observation, plain or Markdown.
type obsWriter struct {
	dst []byte
	md  bool
}

// line starts the line of a member: "\nname: ", or "\n- name: " in
// Markdown.
func (w *obsWriter) line(name string) {
	w.dst = append(w.dst, '\n')
	if w.md {
		w.dst = append(w.dst, "- "...)
	}
	w.dst = append(w.dst, name...)
	w.dst = append(w.dst, ": "...)
}

// violations appends one line per violation, "violation: pointer reason,
// allowed_values: JSON, suggested_value: JSON", at most [MaxViolations];
// nothing when the only violation is the one field already names.
func (w *obsWriter) violations(field string, vs []Violation) {
	if !listsViolations(field, vs) {
		return
	}
	for _, v := range vs[:min(len(vs), MaxViolations)] {
		w.line("violation")
		if v.Field == "" {
			w.text("(the arguments)", MaxFieldLen)
		} else {
			w.code(v.Field, MaxFieldLen)
		}
		reason := v.Reason
		if reason == "" {
			reason = "is invalid"
		}
		w.dst = append(w.dst, ' ')
		w.text(reason, MaxReasonLen)
		w.inline("allowed_values", v.AllowedValues)
		w.inline("suggested_value", v.SuggestedValue)
	}
}

// listsViolations reports whether the observation has violation lines:
// unless the only violation is the one field already names.
func listsViolations(field string, vs []Violation) bool {
	return len(vs) > 1 || len(vs) == 1 && vs[0].Field != field
}

// inline appends ", name: JSON" to the current line, or nothing when v is
// nil or does not render.
func (w *obsWriter) inline(name string, v any) {
	if v == nil {
		return
	}
	mark := len(w.dst)
	w.dst = append(w.dst, ", "...)
	w.dst = append(w.dst, name...)
	w.dst = append(w.dst, ": "...)
	if !w.json(mark, v, MaxValueLen) {
		w.dst = w.dst[:mark]
	}
}

// value appends the line of a JSON-valued member, or nothing when v is nil
// or does not render (as in problem+json) within max bytes. In Markdown
// the JSON is a code span, which Markdown does not interpret.
func (w *obsWriter) value(name string, v any, max int) {
	if v == nil {
		return
	}
	mark := len(w.dst)
	w.line(name)
	if !w.json(mark, v, max) {
		w.dst = w.dst[:mark]
	}
}

// json appends v as JSON of at most max bytes, a code span in Markdown,
// and reports whether it did; on false w.dst may hold a partial value
// after mark, which the caller cuts.
func (w *obsWriter) json(mark int, v any, max int) bool {
	start := len(w.dst)
	dst, err := appendValue(w.dst, v)
	if err != nil || len(dst)-start > max {
		w.dst = dst[:mark]
		return false
	}
	w.dst = unescapeHTML(dst, start)
	if w.md {
		// JSON has no control characters outside strings' escapes, so it
		// fits a code span once fenced.
		json := string(w.dst[start:])
		w.dst = appendCodeSpan(w.dst[:start], json)
	}
	return true
}

// text appends s cut to max bytes at a rune boundary, with invalid UTF-8
// replaced and every control character (line breaks included) turned into
// a space, so s stays on its line; in Markdown, punctuation that Markdown
// interprets is escaped with a backslash.
func (w *obsWriter) text(s string, max int) {
	s = strings.TrimSpace(cutDecoded(s, max))
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			w.dst = utf8.AppendRune(w.dst, utf8.RuneError)
		case r < 0x20, r == 0x7f, r == 0x85, r == '\u2028', r == '\u2029':
			w.dst = append(w.dst, ' ')
		case w.md && strings.ContainsRune(markdownPunct, r):
			w.dst = append(w.dst, '\\', byte(r))
		default:
			w.dst = utf8.AppendRune(w.dst, r)
		}
	}
}

// code appends s as text, in Markdown as a code span, so that a path or
// an id is shown as it is, unescaped: "items[0].sku", "req_1".
func (w *obsWriter) code(s string, max int) {
	if !w.md {
		w.text(s, max)
		return
	}
	w.md = false
	mark := len(w.dst)
	w.text(s, max)
	w.md = true
	plain := string(w.dst[mark:])
	w.dst = appendCodeSpan(w.dst[:mark], plain)
}

// appendCodeSpan appends s as a CommonMark code span: fenced by one more
// backtick than its longest run of backticks, and padded with a space on
// each side when it starts or ends with a backtick, so that s shows
// exactly as it is.
func appendCodeSpan(dst []byte, s string) []byte {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`")
	dst = append(dst, fence...)
	if pad {
		dst = append(dst, ' ')
	}
	dst = append(dst, s...)
	if pad {
		dst = append(dst, ' ')
	}
	return append(dst, fence...)
}

// markdownPunct is the ASCII punctuation that Markdown (CommonMark and
// GFM) can read as markup: emphasis, code, links and images, headings,
// lists, tables, HTML and escapes.
const markdownPunct = "\\`*_[]()!<>#|~{}+-"

// validActions returns the actions that render (see [ValidAction]), at
// most [MaxListLen].
func validActions(actions []string) []string {
	var out []string
	for _, a := range actions {
		if len(out) < MaxListLen && ValidAction(a) {
			out = append(out, a)
		}
	}
	return out
}

// unescapeHTML rewrites, in the JSON that starts at dst[start:], the
// escapes of <, > and & back to the characters: problem+json escapes them
// so that a body sniffed as HTML stays inert, but in the observation, text
// a model reads, they only cost tokens. Other escapes are kept, and an
// escaped backslash is never read as the start of an escape.
func unescapeHTML(dst []byte, start int) []byte {
	out := start
	for i := start; i < len(dst); {
		if dst[i] != '\\' || i+1 >= len(dst) {
			dst[out] = dst[i]
			out, i = out+1, i+1
			continue
		}
		if i+5 < len(dst) && dst[i+1] == 'u' && dst[i+2] == '0' && dst[i+3] == '0' {
			var c byte
			switch string(dst[i+4 : i+6]) {
			case "3c":
				c = '<'
			case "3e":
				c = '>'
			case "26":
				c = '&'
			}
			if c != 0 {
				dst[out] = c
				out, i = out+1, i+6
				continue
			}
		}
		dst[out], dst[out+1] = dst[i], dst[i+1]
		out, i = out+2, i+2
	}
	return dst[:out]
}
