package sanitize

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Traces as JSON values. Frameworks that answer errors in JSON put the
// frames in a member of their own, as an array rather than as lines:
//
//	{"message":"boom","exception":"RuntimeException","trace":[{"file":"/var/www/x.php","line":12,"function":"f"}, …]}
//	{"status":500,"error":"Internal Server Error","traces":{"Application Trace":[{"id":0,"trace":"app/x.rb:5:in `show'"}], …}}
//	{"error":"boom","stackTrace":["com.acme.Foo.bar(Foo.java:42)", …]}
//
// A member whose name is trace, traces, stack, stacktrace, backtrace or
// traceback (any case, '_' and '-' ignored) has its value replaced with the
// JSON string "[stack trace removed: N frames]" when the value is an array
// whose items are all frames (strings the line stage would remove, or
// objects with a file and a line or function), or an object whose arrays
// are all such. Anything else stays: "trace":"4bf92f35…" is a trace id,
// "stack":["redis","postgres"] a technology stack. A string of frames is
// left to the line stage, which already strips a JSON string's escaped
// lines.
//
// The scan is lenient where collapseSpace would change the text: every
// white space or control rune counts as JSON white space, and a frame
// string is judged as collapsed, so cleaning the collapsed output again
// finds nothing new. An array cut short by the input cap is a trace when
// every item before the cut is a frame; one cut by the output cap (it ends
// with the truncation mark) is not, because its frames would have gone
// before the cut.

// jsonTraceNames are the member names of traces, lower case, without '_' and '-'.
var jsonTraceNames = [...]string{"trace", "traces", "stack", "stacktrace", "backtrace", "traceback"}

// maxJSONDepth bounds the nesting the scanner follows.
const maxJSONDepth = 32

// stripJSONTraces replaces the frames of every trace member of a JSON text
// in s, counting traces and frames in rep. It returns s itself when there
// is none, and allocates nothing then.
func stripJSONTraces(s string, rep *Report) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			break
		}
		q := i + k
		vs, ok := jsonTraceKey(s, q)
		if !ok {
			i = q + 1
			continue
		}
		end, frames := jsonTraceValue(s, vs)
		if frames == 0 {
			i = vs
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:vs])
		b.WriteByte('"')
		b.WriteString(stackPlaceholder)
		b.WriteString(strconv.Itoa(frames))
		if frames == 1 {
			b.WriteString(" frame]")
		} else {
			b.WriteString(" frames]")
		}
		b.WriteByte('"')
		rep.add(KindStackTrace, 1)
		rep.add(KindStackFrame, frames)
		last, i = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// jsonTraceKey reports whether the '"' at s[q] opens a member named like a
// trace, after a '{', a ',' or the start of the text, and returns where its
// value starts.
func jsonTraceKey(s string, q int) (int, bool) {
	if p := jsonSpaceBack(s, q); p > 0 && s[p-1] != '{' && s[p-1] != ',' {
		return 0, false
	}
	var name [16]byte
	n := 0
	i := q + 1
	for ; i < len(s) && s[i] != '"'; i++ {
		c := asciifold.Lower(s[i])
		switch {
		case c == '_' || c == '-':
		case c >= 'a' && c <= 'z' && n < len(name):
			name[n] = c
			n++
		default:
			return 0, false
		}
	}
	if i >= len(s) || !isTraceName(string(name[:n])) {
		return 0, false
	}
	at := len(s) - len(skipSpaceRun(s[i+1:])) // s[i] is the closing quote
	if at >= len(s) || s[at] != ':' {
		return 0, false
	}
	v := len(s) - len(skipSpaceRun(s[at+1:]))
	return v, v < len(s)
}

// isTraceName reports whether the normalized name n is one of jsonTraceNames.
func isTraceName(n string) bool {
	for _, t := range jsonTraceNames {
		if n == t {
			return true
		}
	}
	return false
}

// jsonSpaceBack returns the smallest j <= i such that s[j:i] is all white
// space or control runes, as collapseSpace sees them.
func jsonSpaceBack(s string, i int) int {
	for i > 0 {
		c := s[i-1]
		if c < utf8.RuneSelf {
			if c > ' ' && c != 0x7f {
				return i
			}
			i--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !isSpaceOrControl(r) {
			return i
		}
		i -= n
	}
	return i
}

// jsonTraceValue returns the end of the value at s[vs] and the frames it
// holds, or 0 frames when it is not a trace.
func jsonTraceValue(s string, vs int) (end, frames int) {
	sc := jsonScan{s: s}
	var st jsonStatus
	switch s[vs] {
	case '[':
		end, frames, st = sc.frameArray(vs)
	case '{':
		end, frames, st = sc.frameGroups(vs)
	default:
		return 0, 0
	}
	switch {
	case frames == 0, st == jsonBad:
		return 0, 0
	case st == jsonEOF:
		if strings.Contains(s[vs:], truncationMark) {
			return 0, 0
		}
		return len(s), frames
	}
	return end, frames
}

// frameArray reads the array at s[i] and returns its end and its number
// of items when every item is a frame; 0 frames otherwise.
func (sc *jsonScan) frameArray(i int) (end, frames int, st jsonStatus) {
	i = sc.ws(i + 1)
	if i < len(sc.s) && sc.s[i] == ']' {
		return i + 1, 0, jsonOK
	}
	for {
		if i >= len(sc.s) {
			return i, frames, jsonEOF
		}
		var ok bool
		switch sc.s[i] {
		case '"':
			var v string
			i, v, st = sc.str(i)
			ok = st == jsonOK && frameString(v)
		case '{':
			i, ok, st = sc.frameObject(i)
		default:
			return i, 0, jsonBad
		}
		if st != jsonOK {
			return i, frames, st
		}
		if !ok {
			return i, 0, jsonBad
		}
		frames++
		i = sc.ws(i)
		switch {
		case i >= len(sc.s):
			return i, frames, jsonEOF
		case sc.s[i] == ']':
			return i + 1, frames, jsonOK
		case sc.s[i] != ',':
			return i, 0, jsonBad
		}
		i = sc.ws(i + 1)
	}
}

// frameGroups reads the object at s[i], whose members are arrays of
// frames (Rails' "Application Trace", "Framework Trace" and "Full Trace")
// or other values, which are skipped. It returns the frames of its "Full
// Trace" member when it has one, which holds the others, else the sum.
func (sc *jsonScan) frameGroups(i int) (end, frames int, st jsonStatus) {
	full := -1
	i, st = sc.members(i, func(key string, v int) (int, jsonStatus) {
		if sc.s[v] != '[' {
			return sc.value(v, 1)
		}
		e, n, st := sc.frameArray(v)
		if st == jsonBad {
			return e, jsonBad
		}
		if strings.EqualFold(key, "full trace") {
			full = n
		}
		frames += n
		return e, st
	})
	if full >= 0 {
		frames = full
	}
	return i, frames, st
}

// frameObject reads the object at s[i] and reports whether it is one frame:
// it has a file and a line or function, or a function and a class, or a
// member ("trace", "frame", "location") whose string is a frame.
func (sc *jsonScan) frameObject(i int) (end int, ok bool, st jsonStatus) {
	var file, line, fn, class, str bool
	end, st = sc.members(i, func(key string, v int) (int, jsonStatus) {
		switch normalizeKey(key) {
		case "file", "filename", "abspath", "path", "sourcefile", "source":
			file = true
		case "line", "lineno", "linenumber", "colno", "column", "columnnumber":
			line = true
		case "function", "func", "method", "methodname", "functionname", "symbol":
			fn = true
		case "class", "classname", "declaringclass", "module", "typename":
			class = true
		case "trace", "frame", "location":
			if sc.s[v] == '"' {
				e, val, st := sc.str(v)
				str = str || st == jsonOK && frameString(val)
				return e, st
			}
		}
		return sc.value(v, 1)
	})
	return end, file && (line || fn) || fn && class || str, st
}

// normalizeKey returns key in lower case without '_', '-' and spaces.
func normalizeKey(key string) string {
	var b [24]byte
	n := 0
	for i := 0; i < len(key); i++ {
		c := asciifold.Lower(key[i])
		if c == '_' || c == '-' || c == ' ' {
			continue
		}
		if n == len(b) {
			return ""
		}
		b[n] = c
		n++
	}
	return string(b[:n])
}

// frameString reports whether v, a JSON string, is one frame: its first
// line, as collapseSpace leaves it, is a frame of a language the line
// stage knows, or a Go function line with its file line under it.
func frameString(v string) bool {
	first, rest, _ := strings.Cut(strings.TrimLeft(v, " \t\r\n"), "\n")
	l := collapseSpace(first)
	if l == "" {
		return false
	}
	if _, ok := rubyFrame(l); ok {
		return true
	}
	if _, ok := rubyGemFrame(l); ok {
		return true
	}
	if atFrame(l) || pyFileFrame(l) || phpFrame(l) || bareFrame(l) || goFileLine(l) || jsLocation(l) {
		return true
	}
	second, _, _ := strings.Cut(rest, "\n")
	return goFuncLine(l) && goFileLine(collapseSpace(second))
}
