// Package jsonnum reads the JSON number grammar of RFC 8259 §6:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, with no leading zero,
// no '+', no bare '.' and no NaN or infinity.
package jsonnum

// End returns the index after the JSON number that starts at s[i], or -1
// when none does there. What follows the number is not looked at.
func End[T ~string | ~[]byte](s T, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if i++; i >= len(s) || !isDigit(s[i]) {
			return -1
		}
		i = skipDigits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i++; i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return -1
		}
		i = skipDigits(s, i)
	}
	return i
}

// Valid reports whether s is one JSON number literal, with nothing around
// it.
func Valid[T ~string | ~[]byte](s T) bool {
	return End(s, 0) == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipDigits returns the index of the first byte at or after i that is
// not an ASCII digit.
func skipDigits[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
