package sanitize

import "strings"

// pyTracebackHeader opens a Python traceback.
const pyTracebackHeader = "Traceback (most recent call last):"

// pyFileFrame reports whether r is a Python frame line:
// `File "/app/x.py", line 3, in handler`, also with the quotes escaped
// (`File \"/app/x.py\", line 3`) inside a JSON string.
func pyFileFrame(r string) bool {
	r, ok := strings.CutPrefix(r, "File ")
	if !ok {
		return false
	}
	switch {
	case strings.HasPrefix(r, `"`):
		r = r[1:]
	case strings.HasPrefix(r, `\"`):
		r = r[2:]
	default:
		return false
	}
	k := strings.Index(r, `", line `)
	if k < 1 {
		return false
	}
	rest := r[k+len(`", line `):]
	n := digitsLen(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	return rest == "" || strings.HasPrefix(rest, ", in ")
}

// pySourceLine reports whether body, a line after a Python File line
// indented by pyIndent, belongs to that frame: the source line and the
// caret line under it are indented deeper; "[Previous line repeated N more
// times]" stands level with the frames.
func pySourceLine(body string, indent, pyIndent int) bool {
	return indent > pyIndent || strings.HasPrefix(body[indent:], "[Previous line repeated ")
}
