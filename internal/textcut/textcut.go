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

// NumberStart returns where s must end when it is cut at i: i itself,
// unless the text from i on goes on with a digit (after any separators;
// a digit of ASCII or of a script of [DigitZeros], a separator of
// isSeparatorRune),
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
	for n := separatorAt(s, j); n > 0; n = separatorAt(s, j) {
		j += n
	}
	if j < len(s) && digitAt(s, j) == 0 || j == len(s) && !truncated {
		return i
	}
	k := i
	for n := separatorBefore(s, k); n > 0; n = separatorBefore(s, k) {
		k -= n
	}
	if digitBefore(s, k) == 0 {
		return i
	}
	for {
		for n := digitBefore(s, k); n > 0; n = digitBefore(s, k) {
			k -= n
		}
		p := k
		for n := separatorBefore(s, p); n > 0; n = separatorBefore(s, p) {
			p -= n
		}
		if p == k || digitBefore(s, p) == 0 {
			return k
		}
		k = p
	}
}
