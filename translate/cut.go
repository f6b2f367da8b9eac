package translate

import (
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/textcut"
)

// Text the translators read is cut before the sanitizer sees it: a body at
// its cap, a page at the scan limit, a message at its length bound. A cut
// through the middle of a word could leave the start of a token that no
// secret rule recognizes any more ("ghp_R4nd0m…" one character short), and
// the sanitizer cannot know a text was cut. So every cut here ends at a word
// boundary: the partial word at the cut is dropped, and a text that is one
// word throughout is dropped whole. Fail closed.

// isCutSpace reports whether b separates words for [endAtWord].
func isCutSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// endAtWord returns s cut to at most n bytes without splitting a word: s
// itself when it fits, else s up to the last white space at or before n
// (empty when there is none), less the groups of a number that runs
// across the cut (textcut.NumberStart), so that no first digits of a
// card number stay.
func endAtWord[T ~string | ~[]byte](s T, n int) T {
	return s[:wordEnd(s, n, false)]
}

// dropPartialWord returns s without its last word, for a text that was cut
// somewhere at or after its end: the last word may be a fragment, and so
// may a number that ends s (textcut.NumberStart, truncated).
func dropPartialWord[T ~string | ~[]byte](s T) T {
	return s[:wordEnd(s, len(s)-1, true)]
}

// wordEnd is the length of endAtWord(s, n); truncated says that s was
// itself cut off at its end.
func wordEnd[T ~string | ~[]byte](s T, n int, truncated bool) int {
	if n >= len(s) {
		return len(s)
	}
	n = max(n, 0)
	if isCutSpace(s[n]) {
		return textcut.NumberStart(s, n, truncated)
	}
	for i := n - 1; i >= 0; i-- {
		if isCutSpace(s[i]) {
			return textcut.NumberStart(s, i, truncated)
		}
	}
	return 0
}

// gwCut cuts s to at most max bytes at a word boundary, without splitting
// a UTF-8 sequence, and trims it.
func gwCut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = endAtWord(s, max)
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return strings.TrimSpace(s)
}

// clipText trims s and bounds it to jsonTextMax bytes: at a word boundary
// when s has white space before the cut (see gwCut), else, for one word
// throughout, at a rune boundary.
func clipText(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= jsonTextMax {
		return s
	}
	if w := gwCut(s, jsonTextMax); w != "" {
		return w
	}
	return cutRunes(s, jsonTextMax)
}

// cutRunes bounds s to max bytes at a rune boundary, less the groups of
// a number the cut runs through (textcut.NumberStart), and repairs its
// UTF-8.
func cutRunes(s string, max int) string {
	if len(s) > max {
		i := max
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:textcut.NumberStart(s, i, false)]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
