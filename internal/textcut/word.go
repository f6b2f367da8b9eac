package textcut

// isSpace reports whether c separates the words of a cut text: ASCII white
// space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// AtWord returns s cut to at most n bytes without keeping part of a word:
// s itself when it fits; else s up to the white space before the word the
// cap runs through, however long that word is (a text that is one word
// throughout goes whole), less the groups of a number that runs across
// the cut ([NumberStart]), and less the white space that then ends it.
func AtWord[T ~string | ~[]byte](s T, n int) T {
	if len(s) <= n {
		return s
	}
	return trimSpaceEnd(s[:wordEnd(s, n, false)])
}

// DropLastWord returns s without its last word, for a text that was cut
// off at its end: that word may be a fragment, and so may the number that
// ends what is kept ([NumberStart], truncated). White space that then
// ends it goes too; a text that is one word throughout goes whole. A text
// ending with white space keeps its last word, which the cut did not run
// through, unless that is a number whose groups may go on.
func DropLastWord[T ~string | ~[]byte](s T) T {
	return trimSpaceEnd(s[:wordEnd(s, len(s)-1, true)])
}

// wordEnd returns where s ends when it is cut before the word at s[n]:
// at the last white space at or before n (0 when there is none), moved
// back over a number that runs across it.
func wordEnd[T ~string | ~[]byte](s T, n int, truncated bool) int {
	for i := min(n, len(s)-1); i >= 0; i-- {
		if isSpace(s[i]) {
			return NumberStart(s, i, truncated)
		}
	}
	return 0
}

// trimSpaceEnd returns s without the white space that ends it.
func trimSpaceEnd[T ~string | ~[]byte](s T) T {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}
