// Package textcut cuts text short without leaving a fragment that the
// rules reading it after the cut no longer recognize.
//
// A text cut before the secret rules see it (a vendor body at its cap, an
// HTML page's title, a sanitizer input at its limit) is cut at a word by
// [AtWord], or loses its last word by [DropLastWord] when it was cut
// already: a cut never keeps part of a word, however long the word, since
// a fragment of a token ("ghp_R4nd0m…" one character short) matches no
// rule any more, and keeping it would fail open. With the word go the
// groups of a number that runs across the cut ([NumberStart]): the first
// twelve digits of a card number cut at a cap are not a card number to
// any rule, yet they are twelve digits of one, and PCI DSS lets no more
// than the first six and last four be shown.
//
// Text that no rule reads after the cut, because it was sanitized already
// or is a validated token, is cut at a rune boundary by [AtRune].
package textcut

// isSeparator reports whether c joins the groups of a number: white space
// (any amount, as the sanitizer's card rule reads it) or '-'.
func isSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '-'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// NumberStart returns where s must end when it is cut at i: i itself,
// unless the text from i on goes on with a digit (after any separators),
// or, when truncated says that s itself was cut off at its end, reaches
// that end with nothing but separators; and s[:i] ends with a digit, or a
// digit and separators. Then a number may run across the cut, and
// NumberStart returns the start of its groups before the cut: of the run
// of digits and separators ("4242 4242-4242") that ends s[:i], up to and
// without the separators before its first digit. A number glued to a
// word ("ord_4242") loses only its digits.
func NumberStart[T ~string | ~[]byte](s T, i int, truncated bool) int {
	if i <= 0 || i >= len(s) && !truncated {
		return max(min(i, len(s)), 0)
	}
	i = min(i, len(s))
	j := i
	for j < len(s) && isSeparator(s[j]) {
		j++
	}
	if j < len(s) && !isDigit(s[j]) || j == len(s) && !truncated {
		return i
	}
	k := i
	for k > 0 && isSeparator(s[k-1]) {
		k--
	}
	if k == 0 || !isDigit(s[k-1]) {
		return i
	}
	for {
		for k > 0 && isDigit(s[k-1]) {
			k--
		}
		p := k
		for p > 0 && isSeparator(s[p-1]) {
			p--
		}
		if p == k || p == 0 || !isDigit(s[p-1]) {
			return k
		}
		k = p
	}
}
