package argcheck

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Nearest names and enum members: a value is taken as a misspelling of a
// candidate only when exactly one candidate is that close, so the choice
// is deterministic and never a guess between two.

// Bounds on the edit-distance search, so that a hostile call (thousands of
// long values against a long enum) costs milliseconds, not minutes: values
// and names over maxTypoLen runes are matched by case and separators
// only, and only the first maxTypoCandidates candidates are measured.
const (
	maxTypoLen        = 64
	maxTypoCandidates = 1024
)

// nearestString returns the candidate s most plausibly meant: the one equal
// to it but for case, else the one equal once case and separators ("-",
// "_", " ", ".") are ignored ("customerId" for "customer_id"), else the
// one within a small edit distance (one edit up to 5 letters, two from 6;
// transpositions count once). Each step needs a single match.
func nearestString(s string, candidates []string) (string, bool) {
	if s == "" || len(s) > 256 {
		return "", false
	}
	if c, ok := single(candidates, func(c string) bool { return strings.EqualFold(c, s) }); ok {
		return c, true
	}
	fold := folded(s)
	if c, ok := single(candidates, func(c string) bool { return folded(c) == fold }); ok {
		return c, true
	}
	if utf8.RuneCountInString(fold) > maxTypoLen {
		return "", false // a long value is not a typo of a name
	}
	best, bestD, ties := "", 1<<30, 0
	for _, c := range candidates[:min(len(candidates), maxTypoCandidates)] {
		fc := folded(c)
		if n, m := utf8.RuneCountInString(fold), utf8.RuneCountInString(fc); n-m > 2 || m-n > 2 || m > maxTypoLen {
			continue // more than two edits apart by length alone
		}
		d := editDistance(fold, fc)
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
	if ties == 1 && bestD <= limit && utf8.RuneCountInString(fold) >= 3 {
		return best, true
	}
	return "", false
}

// single returns the only candidate that match accepts.
func single(candidates []string, match func(string) bool) (string, bool) {
	found, n := "", 0
	for _, c := range candidates {
		if match(c) {
			found, n = c, n+1
		}
	}
	return found, n == 1
}

// folded is s lower-cased without separators.
func folded(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '-', '_', ' ', '.':
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions), over
// runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
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

// nearestMember returns the enum member got most plausibly meant: a
// string member by [nearestString]; or the member whose JSON text equals
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
		if c, ok := nearestString(s, strs); ok {
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
