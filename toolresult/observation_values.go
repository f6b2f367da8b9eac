package toolresult

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
)

// markdownPunct is the punctuation the Markdown observation escapes with
// a backslash in texts (toolerr's markdownPunct).
const markdownPunct = "\\`*_[]()!<>#|~{}+-"

// text returns a text value: as it is in plain text, unescaped in
// Markdown.
func (p obsParser) text(s string) string {
	if !p.md || !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(markdownPunct, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// code returns a path or an id: as it is in plain text, the content of
// the one code span it is in Markdown.
func (p obsParser) code(s string) (string, bool) {
	if !p.md {
		return s, s != ""
	}
	content, rest, ok := codeSpan(s)
	return content, ok && rest == "" && content != ""
}

// codeSpan reads the CommonMark code span at the start of s, as toolerr
// writes it (a fence one backtick longer than the longest run inside, a
// space of padding on each side when the content starts or ends with a
// backtick), and returns its content and what follows it.
func codeSpan(s string) (content, rest string, ok bool) {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	if n == 0 {
		return "", "", false
	}
	for i := n; i < len(s); {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return "", "", false
		}
		start := i + j
		end := start
		for end < len(s) && s[end] == '`' {
			end++
		}
		if end-start == n {
			content = s[n:start]
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			return content, s[end:], true
		}
		i = end
	}
	return "", "", false
}

// json decodes a JSON value of at most max bytes: the value as it is in
// plain text, inside one code span in Markdown. Numbers decode as
// json.Number; anything after the value is an error.
func (p obsParser) json(s string, max int) (any, bool) {
	if p.md {
		content, rest, ok := codeSpan(s)
		if !ok || rest != "" {
			return nil, false
		}
		s = content
	}
	if len(s) == 0 || len(s) > max {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || v == nil {
		return nil, false
	}
	if len(bytes.TrimLeft([]byte(s[dec.InputOffset():]), " \t\r\n")) != 0 {
		return nil, false
	}
	return v, true
}

// retryable reads "true|false[, retry_after_ms: N][, max_attempts: N]".
func (p obsParser) retryable(m *obsMembers, s string) bool {
	switch {
	case strings.HasPrefix(s, "true"):
		m.retryable, s = true, s[len("true"):]
	case strings.HasPrefix(s, "false"):
		s = s[len("false"):]
	default:
		return false
	}
	if m.retryable && !m.category.CanRetry() {
		return false // never rendered: retryable only where it can be
	}
	var ok bool
	if rest, found := strings.CutPrefix(s, ", retry_after_ms: "); found {
		if m.retryAfterMS, s, ok = number(rest, 1<<53); !ok {
			return false
		}
	}
	if rest, found := strings.CutPrefix(s, ", max_attempts: "); found {
		if !m.retryable {
			return false // rendered only on a retryable error
		}
		if m.maxAttempts, s, ok = number(rest, 1<<31); !ok {
			return false
		}
	}
	return s == ""
}

// number reads the positive decimal at the start of s, at most max, and
// returns it and what follows.
func number(s string, max int64) (int64, string, bool) {
	n := 0
	for n < len(s) && n < 20 && '0' <= s[n] && s[n] <= '9' {
		n++
	}
	v, err := strconv.ParseInt(s[:n], 10, 64)
	if err != nil || v < 1 || v > max || s[0] == '0' {
		return 0, "", false
	}
	return v, s[n:], true
}

// violation reads "POINTER REASON[, allowed_values: JSON][,
// suggested_value: JSON]"; the pointer is "(the arguments)" for the
// arguments as a whole, a code span in Markdown. In plain text the
// pointer ends at its first space, unless the line starts with field, the
// pointer of the field line, and a space.
func (p obsParser) violation(s, field string) (toolerr.Violation, bool) {
	var v toolerr.Violation
	var ok bool
	s, v.SuggestedValue = p.inlineValue(s, ", suggested_value: ")
	s, v.AllowedValues = p.inlineValue(s, ", allowed_values: ")
	whole := "(the arguments) "
	if p.md {
		whole = `\(the arguments\) `
	}
	if rest, found := strings.CutPrefix(s, whole); found {
		v.Reason = p.text(rest)
		return v, v.Reason != "" && len(v.Reason) <= toolerr.MaxReasonLen
	}
	var rest string
	if p.md {
		if v.Field, rest, ok = codeSpan(s); !ok || v.Field == "" {
			return v, false
		}
		if rest, ok = strings.CutPrefix(rest, " "); !ok {
			return v, false
		}
	} else if rest, ok = strings.CutPrefix(s, field+" "); ok && field != "" {
		v.Field = field
	} else if v.Field, rest, ok = strings.Cut(s, " "); !ok || v.Field == "" {
		return v, false
	}
	v.Reason = p.text(rest)
	return v, v.Reason != "" && len(v.Reason) <= toolerr.MaxReasonLen && len(v.Field) <= toolerr.MaxFieldLen
}

// inlineValue cuts ", name: JSON" off the end of s and returns the rest
// and the value, or s and nil when s does not end so. The rightmost
// separator whose tail is one JSON value wins, so a value whose strings
// hold the separator is read whole; only tails within the size a value
// can have are tried, which bounds the work.
func (p obsParser) inlineValue(s, sep string) (string, any) {
	limit := toolerr.MaxValueLen
	if p.md {
		limit = 3*toolerr.MaxValueLen + 4 // the fences of a code span
	}
	for end := len(s); end > 0; {
		i := strings.LastIndex(s[:end], sep)
		if i < 0 || len(s)-i-len(sep) > limit {
			break
		}
		if v, ok := p.json(s[i+len(sep):], toolerr.MaxValueLen); ok {
			return s[:i], v
		}
		end = i
	}
	return s, nil
}

// actions reads "a, b", each a code span in Markdown, every one a valid
// action tag (which holds no space), at most toolerr.MaxListLen.
func (p obsParser) actions(s string) ([]string, bool) {
	var out []string
	if !p.md {
		out = strings.Split(s, ", ")
	}
	for p.md && s != "" {
		a, rest, ok := codeSpan(s)
		if !ok {
			return nil, false
		}
		out = append(out, a)
		if s = rest; s != "" {
			if s, ok = strings.CutPrefix(s, ", "); !ok || s == "" {
				return nil, false
			}
		}
	}
	if len(out) == 0 || len(out) > toolerr.MaxListLen {
		return nil, false
	}
	for _, a := range out {
		if !toolerr.ValidAction(a) {
			return nil, false
		}
	}
	return out, true
}

// intentLine reads "operation[, resource_id: …][, state: …][, recovery:
// …]". In Markdown the member names cannot occur in the escaped texts
// (their underscores would be escaped); in plain text the first
// occurrence of each, in order, separates.
func (p obsParser) intentLine(s string) (*toolerr.Intent, bool) {
	in := &toolerr.Intent{}
	fields := [...]struct {
		sep string
		dst *string
	}{{", resource_id: ", &in.ResourceID}, {", state: ", &in.State}, {", recovery: ", &in.Recovery}}
	cur := &in.Operation
	for _, f := range fields {
		if i := strings.Index(s, f.sep); i >= 0 {
			*cur = p.text(s[:i])
			s, cur = s[i+len(f.sep):], f.dst
		}
	}
	*cur = p.text(s)
	for _, f := range [...]string{in.Operation, in.ResourceID, in.State, in.Recovery} {
		if len(f) > toolerr.MaxIntentFieldLen {
			return nil, false
		}
	}
	return in, in.Operation != ""
}
