package sanitize

// isJSONNumberMember reports whether s[start:end] is the number value of
// a JSON object member: a JSON number literal, after a ':' that follows
// a key's closing quote (not an escaped one, which would put the whole
// text inside a JSON string), and before a ',', '}', ']', the end of the
// text or a line break, white space allowed around each.
func isJSONNumberMember(s string, start, end int) bool {
	if !isJSONNumberLiteral(s[start:end]) {
		return false
	}
	j := skipSpacesBack(s, start)
	if j == 0 || s[j-1] != ':' {
		return false
	}
	j = skipSpacesBack(s, j-1)
	if j == 0 || s[j-1] != '"' {
		return false
	}
	backslashes := 0
	for k := j - 2; k >= 0 && s[k] == '\\'; k-- {
		backslashes++
	}
	if backslashes%2 == 1 {
		return false
	}
	k := end
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	return k == len(s) || s[k] == ',' || s[k] == '}' || s[k] == ']' || s[k] == '\n' || s[k] == '\r'
}

// isJSONNumberLiteral reports whether v is written as a JSON number:
// an optional '-', digits, an optional fraction and exponent.
func isJSONNumberLiteral(v string) bool {
	i := 0
	if i < len(v) && v[i] == '-' {
		i++
	}
	i, ok := skipDigits(v, i)
	if !ok {
		return false
	}
	if i < len(v) && v[i] == '.' {
		if i, ok = skipDigits(v, i+1); !ok {
			return false
		}
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		if i, ok = skipDigits(v, i); !ok {
			return false
		}
	}
	return i == len(v)
}

// skipDigits returns the index past the digits of v from i, and whether
// there was at least one.
func skipDigits(v string, i int) (int, bool) {
	j := i
	for j < len(v) && isDigitByte(v[j]) {
		j++
	}
	return j, j > i
}
