package sanitize

import "strings"

// The stack-trace stage works on lines. A real line ends at "\n" or "\r\n";
// a line that is not itself a frame but holds escaped newlines (the
// two-character sequences \n and \r\n of a JSON string) is split again at
// them. Every line is classified on its own (stack_<lang>.go), then a
// forward pass applies the rules that need the line before (a Go function
// line is known by the file line under it, a Python source line by the
// File line above it, a Rust frame by the "stack backtrace:" marker). Lines
// of trace form groups, bridged by blank lines and continuation headlines
// ("Caused by: …"); each group's frames are replaced by one placeholder.
//
// The fast path is mayHaveTrace, the same classification without context
// or allocation: one IndexByte per line finds the next line, and each
// line is rejected by its first byte after the indentation ("at ", "File",
// "#0", "goroutine", ...) within a few comparisons, so text without a trace
// costs about one pass of IndexByte and is returned as is. Literal anchors
// searched over the whole text cannot do better: the anchors of these
// traces start with common bytes (' ', 'a', '.'), which defeat IndexByte.

// stackPlaceholder starts the placeholder that replaces a trace's frames.
const stackPlaceholder = "[stack trace removed: "

// maxStackPasses bounds the passes run until the text is stable.
const maxStackPasses = 4

// lineKind is what the stage does with one line.
type lineKind uint8

const (
	lineKeep    lineKind = iota // ordinary text or a headline: kept
	lineFrame                   // a stack frame: removed and counted
	lineAux                     // trace furniture (markers, source lines): removed, not counted
	lineNote                    // a removed marker that alone proves a trace (Rust's backtrace note)
	lineRewrite                 // a kept headline with a file path cut out
)

// traceLang is the family of a classified line, for the context rules.
type traceLang uint8

const (
	langNone traceLang = iota
	langAt             // "at …" frames of Java, JavaScript and .NET
	langGo
	langPython
	langRuby
	langPHP
	langRust
)

// stackLine is one line of the text: s[start:end], then its separator
// s[end:next]. Only s[from:cut] is classified: in the first escaped line
// of a JSON string, s[start:from] is the JSON before the string's opening
// quote; in the last, s[cut:end] is the JSON after its closing quote.
// Elsewhere from == start and cut == end.
type stackLine struct {
	start, end, next int
	from, cut        int
	indent           int // bytes of leading white space
	esc              bool
	odd              bool // starts like a trace line and holds odd white space
	pipe             bool // indented by the "| " of a Python exception group
	kind             lineKind
	lang             traceLang
	placeholder      int32  // frames of the trace whose placeholder goes here, or 0
	count            int32  // frames of an inline trace on this one line; 0 for any other line
	head             string // the kept message of a frame, or a rewritten headline; see inlineHead
}

// A line holds many lines' worth of stackLine in a long text, so the
// struct stays at 80 bytes: the int32 counts fill the padding after the
// flags, and an inline trace keeps the text after it in head.

// frames returns how many frames a removed frame line counts for.
func (ln *stackLine) frames() int { return max(1, int(ln.count)) }

// inlineHead packs the message before an inline trace and the text after
// it into one head; neither holds a NUL, as the classifier collapses a
// line with control characters first.
func inlineHead(msg, after string) string { return msg + "\x00" + after }

// inlineParts returns the message and the text after an inline trace.
func inlineParts(head string) (msg, after string) {
	msg, after, _ = strings.Cut(head, "\x00")
	return msg, after
}

// stripStackTraces replaces the frames of every stack trace in s with
// "[stack trace removed: N frames]" ("1 frame"), keeping headlines, and counts the
// traces and frames in rep: first the traces that are JSON values
// (stack_json.go), then those written as lines. It returns s itself when s
// holds no trace.
func stripStackTraces(s string, rep *Report) string {
	s = stripJSONTraces(s, rep)
	for range maxStackPasses {
		if !mayHaveTrace(s) {
			return s
		}
		out, changed := stripOnce(s, rep)
		if !changed {
			return s
		}
		s = out
	}
	return s
}

// mayHaveTrace reports whether some line of s is, on its own, a frame, a
// trace marker or a headline with a path. It allocates nothing.
func mayHaveTrace(s string) bool {
	sp := lineSplitter{s: s, subEnd: -1, bs: -1, php: strings.Contains(s, phpMain)}
	var ln stackLine
	for sp.next(&ln) {
		if ln.kind != lineKeep || ln.odd {
			return true
		}
	}
	return false
}

// stripOnce runs one pass of the stage. It reports whether anything changed.
func stripOnce(s string, rep *Report) (string, bool) {
	lines := make([]stackLine, 0, 64)
	sp := lineSplitter{s: s, subEnd: -1, bs: -1, normalize: true, php: strings.Contains(s, phpMain)}
	var ln stackLine
	for sp.next(&ln) {
		lines = append(lines, ln)
	}
	applyContext(s, lines)
	if !groupTraces(s, lines, rep) {
		return s, false
	}
	return render(s, lines), true
}

// lineSplitter yields the lines of s, real ones and escaped ones.
type lineSplitter struct {
	s         string
	normalize bool // classify lines with odd white space as collapsed
	php       bool // s holds PHP's "{main}", so a line may hold a whole trace
	pos       int  // start of the next line; past len(s) when done
	subEnd    int  // end of the real line being split at escaped newlines, or -1
	subNext   int  // where the line after that real line starts
	first     bool // the next escaped line is the first of its real line
	bs        int  // the next backslash at or after pos, len(s) if none, -1 before the first search
}

// next stores the next classified line in ln and reports whether there was one.
func (sp *lineSplitter) next(ln *stackLine) bool {
	s := sp.s
	if sp.subEnd >= 0 {
		start := sp.pos
		end, nx := nextEscNewline(s, start, sp.subEnd)
		if end < 0 {
			end, nx = sp.subEnd, sp.subNext
			sp.subEnd = -1
		}
		sp.pos = nx
		*ln = stackLine{start: start, end: end, next: min(nx, len(s)), esc: true}
		classifyLine(s, ln, sp.first, sp.normalize, sp.php)
		sp.first = false
		return true
	}
	if sp.pos > len(s) {
		return false
	}
	start := sp.pos
	end, nx := len(s), len(s)+1
	if k := strings.IndexByte(s[start:], '\n'); k >= 0 {
		end = start + k
		nx = end + 1
	}
	if end > start && s[end-1] == '\r' {
		end--
	}
	sp.pos = nx
	*ln = stackLine{start: start, end: end, next: min(nx, len(s))}
	classifyLine(s, ln, false, sp.normalize, sp.php)
	if sp.bs < start && sp.bs < len(s) {
		if k := strings.IndexByte(s[start:], '\\'); k >= 0 {
			sp.bs = start + k
		} else {
			sp.bs = len(s)
		}
	}
	if ln.kind == lineKeep && sp.bs < end {
		if e, _ := nextEscNewline(s, start, end); e >= 0 {
			sp.subEnd, sp.subNext, sp.pos, sp.first = end, nx, start, true
			return sp.next(ln)
		}
	}
	return true
}

// nextEscNewline finds the first escaped newline (\n, \r\n or \r as two or
// four characters) in s[from:limit], reading escapes left to right so that
// an escaped backslash before an n is not one. It returns where the
// sequence starts and ends, or -1, -1.
func nextEscNewline(s string, from, limit int) (int, int) {
	for i := from; i < limit; {
		k := strings.IndexByte(s[i:limit], '\\')
		if k < 0 || i+k+1 >= limit {
			return -1, -1
		}
		i += k
		switch s[i+1] {
		case 'n':
			return i, i + 2
		case 'r':
			if i+3 < limit && s[i+2] == '\\' && s[i+3] == 'n' {
				return i, i + 4
			}
			return i, i + 2
		}
		i += 2
	}
	return -1, -1
}

// applyContext applies the classification rules that depend on the lines
// around a line.
func applyContext(s string, lines []stackLine) {
	pyIndent := -1  // indentation of the last Python File line, while in its frame
	rustBT := false // inside a Rust "stack backtrace:"
	for i := range lines {
		ln := &lines[i]
		body := s[ln.from:ln.cut]
		blank := ln.indent == len(body)
		var prev *stackLine
		if i > 0 {
			prev = &lines[i-1]
		}
		switch {
		case ln.kind == lineKeep && pyIndent >= 0 && !blank && pySourceLine(body, ln.indent, pyIndent):
			ln.kind, ln.lang = lineAux, langPython
		case ln.kind == lineKeep && rustBT && rustNumberedFrame(body[ln.indent:]) && ln.indent > 0:
			ln.kind, ln.lang = lineFrame, langRust
		case ln.kind == lineFrame && ln.lang == langAt && prev != nil && prev.lang == langRust &&
			(prev.kind == lineFrame || prev.kind == lineAux):
			ln.kind, ln.lang = lineAux, langRust
		case ln.kind == lineFrame && ln.lang == langGo && prev != nil && prev.kind == lineKeep &&
			prev.esc == ln.esc && goFuncLine(s[prev.from:prev.cut]):
			prev.kind, prev.lang = lineFrame, langGo
			ln.kind = lineAux
		case ln.kind == lineAux && ln.lang == langPHP && prev != nil && prev.kind == lineKeep:
			if k := phpLocation(s[prev.from:prev.cut]); k >= 0 {
				prev.kind, prev.lang, prev.head = lineRewrite, langPHP, s[prev.from:prev.from+k]
			}
		}
		switch {
		case ln.lang == langPython && ln.kind == lineFrame:
			pyIndent = ln.indent
		case ln.lang == langPython && ln.kind == lineAux:
		default:
			pyIndent = -1
		}
		switch {
		case ln.lang == langRust && ln.kind == lineAux && strings.HasPrefix(body[ln.indent:], "stack backtrace:"):
			rustBT = true
		case ln.lang == langRust, blank:
		default:
			rustBT = false
		}
	}
}

// isTraceLine reports whether a line belongs to a trace.
func isTraceLine(ln *stackLine) bool { return ln.kind != lineKeep }

// continuations start kept lines that continue a trace.
var continuations = [...]string{
	"Caused by: ", "Suppressed: ", "---> ", "[cause]: ", "Next ", "panic: ", "[signal ",
	"[previous exception] ",
	"During handling of the above exception", "The above exception was the direct cause",
}

// bridges reports whether kept line k joins the trace lines around it into
// one trace: a blank line, a continuation headline, the exception line
// after Python frames or the message after a Rust panic headline.
func bridges(s string, lines []stackLine, k int) bool {
	ln := &lines[k]
	r := strings.TrimRight(s[ln.from+ln.indent:ln.cut], " \t")
	if r == "" {
		return true
	}
	for _, p := range continuations {
		if strings.HasPrefix(r, p) {
			return true
		}
	}
	prev := &lines[k-1]
	switch prev.lang {
	case langPython:
		return prev.kind == lineFrame || prev.kind == lineAux
	case langRust:
		return prev.kind == lineRewrite
	}
	return false
}

// groupTraces groups the trace lines, reverts groups that prove no trace,
// marks where each placeholder goes and counts traces and frames in rep.
// It reports whether any trace was found.
func groupTraces(s string, lines []stackLine, rep *Report) bool {
	found := false
	for i := 0; i < len(lines); {
		if !isTraceLine(&lines[i]) {
			i++
			continue
		}
		last := i
		for k := i + 1; k < len(lines); k++ {
			if isTraceLine(&lines[k]) {
				last = k
			} else if !bridges(s, lines, k) {
				break
			}
		}
		frames, proof, lastRemoved := 0, false, -1
		for k := i; k <= last; k++ {
			switch lines[k].kind {
			case lineFrame:
				frames += lines[k].frames()
				lastRemoved = k
			case lineAux:
				lastRemoved = k
			case lineNote:
				proof = true
				lastRemoved = k
			case lineRewrite:
				proof = true
			}
		}
		switch {
		case frames == 0 && !proof:
			for k := i; k <= last; k++ {
				lines[k].kind = lineKeep
			}
		default:
			found = true
			rep.add(KindStackTrace, 1)
			rep.add(KindStackFrame, frames)
			if frames > 0 && lastRemoved >= 0 {
				lines[lastRemoved].placeholder = int32(min(frames, 1<<30))
			}
			unpipe(s, lines[i:last+1])
		}
		i = last + 1
	}
	return found
}
