package sanitize

import (
	"slices"
	"strings"
)

// A span is one finding of a redaction stage: the bytes s[start:end] are
// replaced with repl, and the report counts one of kind. The secrets and the
// internal-hosts stages both collect spans and apply them at once.
type span struct {
	start, end int
	repl       string
	kind       Kind
}

// spanList collects the spans of one stage over one text. Its zero value is
// ready and allocates nothing until the first finding.
type spanList struct {
	spans []span
}

// add records that s[start:end] is replaced with repl, counted as kind.
// Empty and inverted ranges are ignored.
func (l *spanList) add(start, end int, repl string, kind Kind) {
	if end > start {
		l.spans = append(l.spans, span{start: start, end: end, repl: repl, kind: kind})
	}
}

// apply returns s with the collected spans replaced, and counts them in rep.
// Overlapping spans are merged into one region, replaced by the placeholder
// of the span that starts first (the longest one on a tie), so no byte of
// any finding survives. A finding that is the number value of a JSON
// member (`"card": 4242424242424242`) gets its placeholder in quotes, so
// that a JSON body stays JSON (`"card": "[card ending 4242]"`). Without
// spans it returns s itself.
func (l *spanList) apply(s string, rep *Report) string {
	if len(l.spans) == 0 {
		return s
	}
	slices.SortFunc(l.spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range l.spans {
		if sp.start < last { // overlaps the region already replaced
			last = max(last, sp.end)
			continue
		}
		b.WriteString(s[last:sp.start])
		if isJSONNumberMember(s, sp.start, sp.end) {
			// A placeholder is no number: quoted, the JSON stays JSON.
			b.WriteByte('"')
			b.WriteString(sp.repl)
			b.WriteByte('"')
		} else {
			b.WriteString(sp.repl)
		}
		last = sp.end
		rep.add(sp.kind, 1)
	}
	b.WriteString(s[last:])
	return b.String()
}

// redacted returns the typed placeholder of a secret family.
func redacted(family string) string {
	return "[REDACTED:" + family + "]"
}

// placeholderPrefix starts every secret placeholder. A value that starts
// with it was redacted already, which keeps Clean idempotent.
const placeholderPrefix = "[REDACTED"

// isPlaceholder reports whether v starts like a placeholder of either stage.
func isPlaceholder(v string) bool {
	return strings.HasPrefix(v, placeholderPrefix) ||
		strings.HasPrefix(v, privateIPMark) || strings.HasPrefix(v, internalHostMark)
}
