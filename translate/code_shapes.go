package translate

import "strings"

// What vendor codes, names and links look like, for telling them from
// prose.

// isCode reports whether s reads as a code rather than a sentence: at most
// jsonCodeMax bytes of printable ASCII without white space.
func isCode(s string) bool {
	if s == "" || len(s) > jsonCodeMax {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// isInteger reports whether b is a JSON integer.
func isInteger(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isDigitByte(c) {
			return false
		}
	}
	return true
}

// isSnakeToken reports whether s is a short snake_case error token such as
// "channel_not_found": lower-case ASCII letters, digits and underscores,
// starting with a letter, at most 64 bytes.
func isSnakeToken(s string) bool { return isUnderscoreName(s, 64, 'a') }

// isScreamingName reports whether s looks like a SCREAMING_SNAKE error
// name ("REQUIRED_FIELD_MISSING"): upper-case letters, digits and
// underscores, starting with a letter, at most 128 bytes.
func isScreamingName(s string) bool { return isUnderscoreName(s, 128, 'A') }

// isUnderscoreName reports whether s is at most max bytes of letters of one
// case (the alphabet that starts at a, 'a' or 'A'), digits and
// underscores, starting with a letter.
func isUnderscoreName(s string, max int, a byte) bool {
	isLetterOfCase := func(c byte) bool { return c >= a && c <= a+25 }
	if s == "" || len(s) > max || !isLetterOfCase(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isLetterOfCase(c) || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// docURL returns s, trimmed, when it is an absolute http(s) link of
// printable ASCII without quotes or angle brackets, at most jsonTextMax
// bytes; else "".
func docURL(s string) string {
	s = strings.TrimSpace(s)
	l := strings.ToLower(s)
	if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") || len(s) > jsonTextMax {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '<' || c == '>' {
			return ""
		}
	}
	return s
}
