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
// starting with a letter.
func isSnakeToken(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// isScreamingName reports whether s looks like a SCREAMING_SNAKE error
// name ("REQUIRED_FIELD_MISSING"): upper-case letters, digits and
// underscores, starting with a letter.
func isScreamingName(s string) bool {
	if s == "" || len(s) > 128 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
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
