// Package nearest finds the names a mistyped or outdated name stands for:
// a value is taken as a misspelling of a candidate only when exactly one
// candidate is that close, so the choice is deterministic and never a
// guess between two. It has no dependencies, so that package middleware
// (a route's nearest routes) and package argcheck (a field's or enum
// member's repair) share it.
package nearest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on the edit-distance search, so that a hostile call (thousands of
// long values against a long enum) costs milliseconds, not minutes: values
// and names over maxTypoLen runes are matched by case and separators
// only, and only the first maxTypoCandidates candidates are measured.
const (
	maxTypoLen        = 64
	maxTypoCandidates = 1024
)

// String returns the candidate s most plausibly meant: the one equal
// to it but for case, else the one equal once case and separators ("-",
// "_", " ", ".") are ignored ("customerId" for "customer_id"), else the
// one within a small edit distance (one edit up to 5 letters, two from 6;
// transpositions count once). Each step needs a single match.
func String(s string, candidates []string) (string, bool) {
	return Folded(s, candidates, nil)
}

// Folded is [String] given folds, the folded form of each
// candidate, when not nil.
func Folded(s string, candidates, folds []string) (string, bool) {
	if s == "" || len(s) > 256 {
		return "", false
	}
	if c, ok := single(candidates, func(i int) bool { return strings.EqualFold(candidates[i], s) }); ok {
		return c, true
	}
	foldOf := func(i int) string {
		if folds != nil {
			return folds[i]
		}
		return Fold(candidates[i])
	}
	fold := Fold(s)
	if c, ok := single(candidates, func(i int) bool { return foldOf(i) == fold }); ok {
		return c, true
	}
	n := utf8.RuneCountInString(fold)
	if n > maxTypoLen {
		return "", false // a long value is not a typo of a name
	}
	hist := histogram(fold)
	best, bestD, ties := "", 1<<30, 0
	for i, c := range candidates[:min(len(candidates), maxTypoCandidates)] {
		fc := foldOf(i)
		if m := utf8.RuneCountInString(fc); n-m > 2 || m-n > 2 || m > maxTypoLen {
			continue // more than two edits apart by length alone
		}
		if hist.lowerBound(histogram(fc)) > 2 {
			continue // more than two edits apart by letters alone
		}
		d := EditDistance(fold, fc)
		switch {
		case d < bestD:
			best, bestD, ties = c, d, 1
		case d == bestD:
			ties++
		}
	}
	limit := 1
	if utf8.RuneCountInString(best) >= 6 {
		limit = 2
	}
	if ties == 1 && bestD <= limit && n >= 3 {
		return best, true
	}
	return "", false
}

// single returns the only candidate that match accepts, by index.
func single(candidates []string, match func(int) bool) (string, bool) {
	found, n := "", 0
	for i, c := range candidates {
		if match(i) {
			found, n = c, n+1
		}
	}
	return found, n == 1
}

// Fold is s lower-cased without separators.
func Fold(s string) string {
	if foldedAlready(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '-', '_', ' ', '.':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// foldedAlready reports whether s is ASCII with no upper-case letter and
// no separator: its own folded form.
func foldedAlready(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, 'A' <= c && c <= 'Z', c == '-', c == '_', c == ' ', c == '.':
			return false
		}
	}
	return true
}

// EditDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions), over
// runes.
func EditDistance(a, b string) int {
	// Names within maxTypoLen, the usual case, are measured without an
	// allocation.
	var runesA, runesB [maxTypoLen]rune
	var rowsBuf [3 * (maxTypoLen + 1)]int
	ra, rb := appendRunes(runesA[:0], a), appendRunes(runesB[:0], b)
	w := len(rb) + 1
	var rows []int
	if 3*w <= len(rowsBuf) {
		rows = rowsBuf[:3*w]
	} else {
		rows = make([]int, 3*w)
	}
	prev2, prev, cur := rows[:w], rows[w:2*w], rows[2*w:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// appendRunes appends the runes of s to dst.
func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}
