package sanitize

import "github.com/toolerr/toolerr/internal/asciifold"

// PHP's var_dump writes a type note between a key and its value:
// `["cvv"]=> string(3) "836"`, `["cvv"]=> int(836)`. The note is no key,
// and the key before it still labels the value.

// typeNoteWords are the type names of var_dump's notes.
var typeNoteWords = [...]string{"string", "int", "float"}

// skipTypeNote returns where the key before a value is read from when
// s[:j], the text before the value less its separators, ends with a type
// note: before "string(3)" (j after the length, a ')' at s[j]) or before
// "int" (the value inside the parentheses, a '(' at s[j]), and the
// separators before the note. Otherwise it returns j.
func skipTypeNote(s string, j int) int {
	if j >= len(s) {
		return j
	}
	word := j
	switch s[j] {
	case ')': // string(3) "836": the length, then the type
		k := j
		for k > 0 && isDigitByte(s[k-1]) {
			k--
		}
		if k == j || k == 0 || s[k-1] != '(' {
			return j
		}
		word = k - 1
	case '(': // int(836): the type right before the value's parenthesis
	default:
		return j
	}
	for _, w := range typeNoteWords {
		if start := word - len(w); start >= 0 && asciifold.HasPrefix(s[start:], w) && (start == 0 || !isAlnumByte(s[start-1])) {
			return skipKeySeparators(s, start)
		}
	}
	return j
}
