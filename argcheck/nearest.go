package argcheck

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/nearest"
)

// nearestMember returns the enum member got most plausibly meant: a
// string member by [nearest.String]; or the member whose JSON text equals
// got's text ("5" for 5, true for "true").
func nearestMember(got any, members []any) (any, bool) {
	text := jsonText(got)
	if s, ok := got.(string); ok {
		var strs []string
		for _, m := range members {
			if ms, ok := m.(string); ok {
				strs = append(strs, ms)
			}
		}
		if c, ok := nearest.String(s, strs); ok && digitsOf(c) == digitsOf(s) {
			// A typo of a number is another number (fall_2025 is not
			// fall_2026): only letters are corrected.
			return c, true
		}
		if c, ok := uniquePrefix(s, strs); ok {
			return c, true
		}
		text = s
	}
	var match any
	n := 0
	for _, m := range members {
		mt := jsonText(m)
		if ms, ok := m.(string); ok {
			mt = ms
		}
		if strings.EqualFold(mt, text) {
			match, n = m, n+1
		}
	}
	return match, n == 1
}

// jsonText is v as compact JSON, for reasons and hints.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// uniquePrefix returns the one member that s starts, ignoring case, when
// s is long enough to be unmistakable: three letters or more and a third
// of the member ("prod" for production, "perf" for performance).
func uniquePrefix(s string, members []string) (string, bool) {
	n := utf8.RuneCountInString(s)
	if n < 3 {
		return "", false
	}
	found, count := "", 0
	for _, m := range members {
		if len(m) >= len(s) && strings.EqualFold(m[:len(s)], s) && 3*n >= utf8.RuneCountInString(m) {
			found, count = m, count+1
		}
	}
	return found, count == 1
}

// digitsOf returns the digits of s, in order.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
