package sanitize

import "unicode/utf8"

// Byte classes shared by the secrets and internal-hosts stages.

// isAlnumByte reports whether c is an ASCII letter or digit.
func isAlnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// isHexByte reports whether c is an ASCII hexadecimal digit.
func isHexByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isWordByte reports whether c continues an identifier-like token: a letter,
// a digit or '_'. A token only starts after a byte that is not one.
func isWordByte(c byte) bool { return isAlnumByte(c) || c == '_' }

// isHostByte reports whether c may appear in a host name label.
func isHostByte(c byte) bool { return isAlnumByte(c) || c == '-' || c == '_' }

// spaceRuneAt returns the byte length of the white-space or control rune at
// s[i], or 0 when there is none. It agrees with the collapse stage, so a
// rule sees the same token boundaries before and after collapsing.
func spaceRuneAt(s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		if c <= ' ' || c == 0x7f {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if isSpaceOrControl(r) {
		return n
	}
	return 0
}

// spaceRuneBefore returns the byte length of the white-space or control rune
// that ends at s[:i], or 0.
func spaceRuneBefore(s string, i int) int {
	if i <= 0 {
		return 0
	}
	c := s[i-1]
	if c < utf8.RuneSelf {
		if c <= ' ' || c == 0x7f {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeLastRuneInString(s[:i])
	if isSpaceOrControl(r) {
		return n
	}
	return 0
}

// skipSpaces returns the first index >= i that does not start a white-space
// or control rune.
func skipSpaces(s string, i int) int {
	for i < len(s) {
		n := spaceRuneAt(s, i)
		if n == 0 {
			break
		}
		i += n
	}
	return i
}

// skipSpacesBack returns the smallest index j <= i such that s[j:i] is all
// white space or control runes.
func skipSpacesBack(s string, i int) int {
	for i > 0 {
		n := spaceRuneBefore(s, i)
		if n == 0 {
			break
		}
		i -= n
	}
	return i
}

// nonSpaceEnd returns the end of the run of non-space runes that starts at i.
func nonSpaceEnd(s string, i int) int {
	for i < len(s) && spaceRuneAt(s, i) == 0 {
		i++
	}
	return i
}

// lineBreakAt returns the index of the first line break at or after i: a
// newline, a carriage return, or the escapes \n and \r of a JSON string.
func lineBreakAt(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r':
			return i
		case '\\':
			if i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') {
				return i
			}
		}
	}
	return i
}
