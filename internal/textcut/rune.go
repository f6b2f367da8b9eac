package textcut

import "unicode/utf8"

// RuneEnd returns where s must end when it is cut to at most n bytes
// without splitting a UTF-8 sequence: len(s) when s fits, else the start
// of the rune at n (0 for a negative n).
func RuneEnd[T ~string | ~[]byte](s T, n int) int {
	if n >= len(s) {
		return len(s)
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// AtRune returns s cut to at most n bytes at a rune boundary, whatever
// word the cap runs through: for text that no rule reads after the cut,
// because it was sanitized already (a JSON-RPC error's message) or is a
// validated token (a vendor's code), or is no error text at all (a
// tool's output). Text that the sanitizer still has to read is cut by
// [AtWord].
func AtRune[T ~string | ~[]byte](s T, n int) T {
	return s[:RuneEnd(s, n)]
}
