package sanitize

import (
	"strings"
	"unicode/utf8"
)

// classifyLine classifies ln on its own, without the lines around it: it
// sets ln.cut, ln.indent, ln.kind, ln.lang and, for a frame carrying a
// message or a rewritten headline, ln.head. Each case first checks one
// byte, so ordinary prose is rejected within a few comparisons.
//
// In an escaped line, only the part inside the JSON string counts: after
// the last unescaped quote of the first line (first), before the first
// unescaped quote of the others.
//
// A line that starts like a trace line and holds white space that
// collapseSpace would change is classified as collapsed, so that the
// pipeline's final collapse cannot turn it into a trace line: when
// normalize is false (the gate), such a line is only flagged in ln.odd.
// php tells whether the text holds "{main}" at all, so that a line is
// searched for a PHP trace on one line only then.
func classifyLine(s string, ln *stackLine, first, normalize, php bool) {
	ln.from, ln.cut = ln.start, ln.end
	if ln.esc {
		t := s[ln.start:ln.end]
		if first {
			if q := lastUnescapedQuote(t); q >= 0 {
				ln.from = ln.start + q + 1
			}
		} else if q := unescapedQuote(t); q >= 0 {
			ln.cut = ln.start + q
		}
	}
	body := s[ln.from:ln.cut]
	i := skipIndent(body, ln.esc)
	i, ln.pipe = skipGroupPipe(body, i, ln.esc)
	ln.indent = i
	if i == len(body) {
		return
	}
	r := trimSpaceRight(body[i:])
	loc := tokenLocation(r)
	gem := rubyGemStart(r)
	main := php && strings.Contains(r, phpMain)
	if (loc != 0 || gem || main || traceKeyword(r, i > 0) || frameWordStart(r, i > 0)) && oddSpace(r) {
		if !normalize {
			ln.odd = true
			return
		}
		r = collapseSpace(r)
		body = body[:i] + r
		if r == "" {
			return
		}
		loc, gem = tokenLocation(r), rubyGemStart(r)
	}
	set := func(k lineKind, l traceLang) { ln.kind, ln.lang = k, l }
	switch r[0] {
	case 'a':
		if i > 0 && atFrame(r) {
			set(lineFrame, langAt)
		}
	case 'F':
		if i > 0 && pyFileFrame(r) {
			set(lineFrame, langPython)
		}
	case 'T':
		if r == pyTracebackHeader {
			set(lineAux, langPython)
		}
	case '#':
		if phpFrame(r) {
			set(lineFrame, langPHP)
		}
	case 'S':
		if r == phpStackHeader {
			set(lineAux, langPHP)
		}
	case 's':
		if r == rustBacktraceHeader {
			set(lineAux, langRust)
		}
	case 'n':
		if rustNote(r) {
			set(lineNote, langRust)
		}
	case 't':
		if phpThrownIn(r) {
			set(lineAux, langPHP)
		} else if strings.HasPrefix(r, "thread ") {
			if h, ok := rustHeadline(body); ok {
				set(lineRewrite, langRust)
				ln.head = h
			}
		}
	case 'g':
		if goroutineHeader(r) {
			set(lineAux, langGo)
		}
	case '.':
		if l := ellipsisLine(r); l != langNone {
			set(lineAux, l)
		}
	case '-':
		if dotnetMarker(r) {
			set(lineAux, langAt)
		}
	case '+':
		if pyGroupMarker(r) {
			set(lineAux, langPython)
		}
	case '[':
		if r == monologStackHeader {
			set(lineAux, langPHP)
		}
	}
	if ln.kind != lineKeep {
		return
	}
	if i > 0 && bareFrame(r) {
		set(lineFrame, langAt)
		return
	}
	if gem {
		if m, ok := rubyGemFrame(r); ok {
			set(lineFrame, langRuby)
			ln.head = r[m:]
			return
		}
	}
	if main {
		if head, after, n, ok := phpInlineTrace(r); ok {
			set(lineFrame, langPHP)
			ln.head, ln.count = inlineHead(head, after), int32(min(n, 1<<30))
			return
		}
	}
	if loc&locGo != 0 && i > 0 && (body[0] == '\t' || ln.esc && strings.HasPrefix(body, `\t`)) && goFileLine(r) {
		set(lineFrame, langGo)
		return
	}
	if loc&locRuby == 0 {
		return
	}
	if m, ok := rubyFrame(r); ok {
		set(lineFrame, langRuby)
		ln.head = r[m:]
	}
}

// Locations tokenLocation finds.
const (
	locGo   = 1 << iota // ".go:" or ".s:"
	locRuby             // ".rb:"
)

// tokenLocation reports which file locations the first word of r holds,
// after a leading "from ": Go and Ruby frames start with their file. The
// word of a Windows drive path runs over single spaces.
func tokenLocation(r string) int {
	if rest, ok := strings.CutPrefix(r, "from"); ok && len(rest) > 0 && (rest[0] <= ' ' || rest[0] >= 0x7f) {
		r = skipSpaceRun(rest)
	}
	loc := 0
	drive := drivePath(r) // a Windows path may hold spaces ("C:/Program Files/Go/...")
	for i := 0; i < len(r) && (r[i] > ' ' && r[i] < 0x7f || drive && r[i] == ' '); i++ {
		if r[i] != '.' {
			continue
		}
		switch rest := r[i+1:]; {
		case strings.HasPrefix(rest, "go:"), strings.HasPrefix(rest, "s:"):
			loc |= locGo
		case strings.HasPrefix(rest, "rb:"):
			loc |= locRuby
		}
	}
	return loc
}

// traceKeyword reports whether r, a line after its indentation, starts
// like a trace line: "at" (indented), "File" (indented), "Traceback (",
// "Stack trace:", "stack backtrace:", "note:", "thread", "thrown in",
// "goroutine 1", "... 1", "--- End", "#1", "1:", the "+-" and "+
// Exception" of a Python exception group or Monolog's "[stacktrace]". The
// words may be apart by any white space, as collapseSpace would join them.
func traceKeyword(r string, indented bool) bool {
	switch r[0] {
	case 'a':
		return indented && twoWords(r, "at", "")
	case 'F':
		return indented && twoWords(r, "File", "")
	case 'T':
		return twoWords(r, "Traceback", "(")
	case 'S':
		return twoWords(r, "Stack", "trace:")
	case 's':
		return twoWords(r, "stack", "backtrace:")
	case 'n':
		return strings.HasPrefix(r, "note:")
	case 't':
		return twoWords(r, "thread", "") || twoWords(r, "thrown", "in")
	case 'g':
		return twoWords(r, "goroutine", "") && digitsLen(skipSpaceRun(r[len("goroutine"):])) > 0
	case '.':
		return twoWords(r, "...", "") && digitsLen(skipSpaceRun(r[3:])) > 0
	case '-':
		return twoWords(r, "---", "End")
	case '#':
		return digitsLen(r[1:]) > 0
	case '+':
		return strings.HasPrefix(r, "+-") || twoWords(r, "+", "Exception")
	case '[':
		return strings.HasPrefix(r, monologStackHeader)
	}
	n := digitsLen(r)
	return n > 0 && n < len(r) && r[n] == ':'
}

// twoWords reports whether r starts with w1, then white space, then w2.
func twoWords(r, w1, w2 string) bool {
	if !strings.HasPrefix(r, w1) {
		return false
	}
	rest := r[len(w1):]
	after := skipSpaceRun(rest)
	return len(after) < len(rest) && strings.HasPrefix(after, w2)
}

// skipSpaceRun returns t without its leading white space and control
// characters, as collapseSpace sees them.
func skipSpaceRun(t string) string {
	for len(t) > 0 {
		if t[0] < 0x80 {
			if t[0] > ' ' && t[0] != 0x7f {
				return t
			}
			t = t[1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(t)
		if !isSpaceOrControl(r) {
			return t
		}
		t = t[size:]
	}
	return t
}

// oddSpace reports whether collapseSpace would change r: it holds a
// control character, two spaces in a row or non-ASCII white space.
func oddSpace(r string) bool {
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c < ' ' || c == 0x7f:
			return true
		case c == ' ':
			if i+1 < len(r) && r[i+1] == ' ' {
				return true
			}
		case c >= 0x80:
			ru, size := utf8.DecodeRuneInString(r[i:])
			if isSpaceOrControl(ru) {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// unescapedQuote returns the index of the first '"' of t that is not
// escaped by a backslash, or -1.
func unescapedQuote(t string) int {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// lastUnescapedQuote returns the index of the last '"' of t that is not
// escaped by a backslash, or -1.
func lastUnescapedQuote(t string) int {
	q := -1
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			q = i
		}
	}
	return q
}

// skipIndent returns the length of t's leading white space and control
// characters (all that collapseSpace turns into a space), counting an
// escaped tab (the two characters \t) in an escaped line.
func skipIndent(t string, esc bool) int {
	i := 0
	for i < len(t) {
		c := t[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case esc && c == '\\' && i+1 < len(t) && t[i+1] == 't':
			i += 2
		case c < ' ' || c == 0x7f:
			i++
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(t[i:])
			if !isSpaceOrControl(r) {
				return i
			}
			i += size
		default:
			return i
		}
	}
	return i
}

// trimSpaceRight returns t without trailing spaces and tabs.
func trimSpaceRight(t string) string {
	n := len(t)
	for n > 0 && (t[n-1] == ' ' || t[n-1] == '\t') {
		n--
	}
	return t[:n]
}

// digitsLen returns how many ASCII digits t starts with.
func digitsLen(t string) int {
	n := 0
	for n < len(t) && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	return n
}

// isDigits reports whether t is one or more ASCII digits.
func isDigits(t string) bool { return t != "" && digitsLen(t) == len(t) }

// pathBeforeLineCol reports whether t ends with ":" and digits, optionally
// followed by another ":" and digits (line and column), after at least one
// byte of path. It returns the length of the path.
func pathBeforeLineCol(t string) (int, bool) {
	k := strings.LastIndexByte(t, ':')
	if k < 1 || !isDigits(t[k+1:]) {
		return 0, false
	}
	if j := strings.LastIndexByte(t[:k], ':'); j >= 1 && isDigits(t[j+1:k]) {
		k = j
	}
	return k, true
}
