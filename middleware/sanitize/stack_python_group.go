package sanitize

import "strings"

// Python 3.11 prints an ExceptionGroup as nested boxes: every line of a
// group is indented by "| ", and "+" lines open the group and separate
// its sub-exceptions:
//
//	  + Exception Group Traceback (most recent call last):
//	  |   File "/app/main.py", line 20, in <module>
//	  | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
//	  +-+---------------- 1 ----------------
//	    | Traceback (most recent call last):
//	    |   File "/app/main.py", line 8, in fetch
//	    | ValueError: bad input
//	    +------------------------------------
//
// The stage reads the "| " as indentation, so the frames inside are plain
// Python frames, drops the "+" lines as trace furniture, and writes the
// kept headlines of a stripped group without their "| ".

// pyGroupHeader opens the traceback of an exception group.
const pyGroupHeader = "+ Exception Group Traceback (most recent call last):"

// skipGroupPipe returns where the indentation of t ends when the "|" of an
// exception group, followed by white space or the end of the line, stands
// at t[i] after the indentation i, and whether it did. White space counts
// as collapseSpace sees it, so a collapsed line reads the same.
func skipGroupPipe(t string, i int, esc bool) (int, bool) {
	pipe := false
	for i < len(t) && t[i] == '|' {
		j := i + 1 + skipIndent(t[i+1:], esc)
		if j == i+1 && j < len(t) {
			break
		}
		i, pipe = j, true
	}
	return i, pipe
}

// pyGroupMarker reports whether r is one of the "+" lines of an exception
// group: its header, or a separator such as "+-+---------------- 1
// ----------------", "+---------------- ... ----------------" or
// "+------------------------------------".
func pyGroupMarker(r string) bool {
	if r == pyGroupHeader {
		return true
	}
	if !strings.HasPrefix(r, "+-") || !strings.Contains(r, "----") {
		return false
	}
	for i := 0; i < len(r); i++ {
		switch c := r[i]; {
		case c == '+', c == '-', c == ' ', c == '.', isDigitByte(c):
		default:
			return false
		}
	}
	return true
}

// unpipe rewrites the kept lines of a stripped trace that stand in an
// exception group's box to their text alone: "    | ValueError: bad input"
// becomes "ValueError: bad input".
func unpipe(s string, lines []stackLine) {
	for k := range lines {
		ln := &lines[k]
		if ln.kind != lineKeep || !ln.pipe {
			continue
		}
		body := s[ln.from:ln.cut]
		if ln.indent >= len(body) {
			continue // a blank line of the box
		}
		ln.kind, ln.head = lineRewrite, trimSpaceRight(body[ln.indent:])
	}
}
