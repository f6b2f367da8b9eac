package sanitize

import (
	"strconv"
	"strings"
)

// render writes the text with removed lines left out and placeholders in.
func render(s string, lines []stackLine) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := range lines {
		ln := &lines[i]
		sep := s[ln.end:ln.next]
		switch ln.kind {
		case lineKeep:
			b.WriteString(s[ln.start:ln.next])
			continue
		case lineRewrite:
			b.WriteString(s[ln.start:ln.from])
			b.WriteString(ln.head)
			b.WriteString(s[ln.cut:ln.next])
			continue
		}
		b.WriteString(s[ln.start:ln.from])
		tail := s[ln.cut:ln.end]
		if ln.count > 0 { // an inline trace: its placeholder stays in its line
			msg, after := inlineParts(ln.head)
			b.WriteString(msg)
			if ln.placeholder > 0 {
				if msg != "" {
					b.WriteByte(' ')
				}
				writePlaceholder(&b, int(ln.placeholder))
			}
			b.WriteString(after)
			b.WriteString(tail)
			b.WriteString(sep)
			continue
		}
		if ln.head != "" {
			b.WriteString(ln.head)
			b.WriteString(lineSep(sep, ln.esc))
		}
		if ln.placeholder > 0 {
			writePlaceholder(&b, int(ln.placeholder))
			b.WriteString(tail)
			b.WriteString(sep)
		} else if tail != "" {
			b.WriteString(tail)
			b.WriteString(sep)
		}
	}
	return b.String()
}

// writePlaceholder writes the placeholder of a trace of n frames.
func writePlaceholder(b *strings.Builder, n int) {
	b.WriteString(stackPlaceholder)
	b.WriteString(strconv.Itoa(n))
	if n == 1 {
		b.WriteString(" frame]")
	} else {
		b.WriteString(" frames]")
	}
}

// lineSep returns sep, or a newline of the line's kind when sep is empty.
func lineSep(sep string, esc bool) string {
	switch {
	case sep != "":
		return sep
	case esc:
		return `\n`
	}
	return "\n"
}
