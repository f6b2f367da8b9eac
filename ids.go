package toolerr

// ValidRequestID reports whether id may be echoed as a request id: 1 to 128
// bytes of ASCII letters, digits and . _ : / -. Anything else (CR/LF,
// quotes, spaces, non-ASCII) must be replaced, never echoed. The slash is
// allowed because chi's RequestID middleware makes ids such as
// "host/AbCd012345-000001", and a service's logs and its errors should
// carry the same id.
func ValidRequestID(id string) bool {
	if id == "" || len(id) > MaxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !requestIDByte[id[i]] {
			return false
		}
	}
	return true
}

// requestIDByte marks the bytes a request id may hold: ASCII letters,
// digits and . _ : / -. A table, since every error checks its ids on
// the way out.
var requestIDByte = func() (t [256]bool) {
	for b := 0; b < 256; b++ {
		c := byte(b)
		t[b] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == ':' || c == '/' || c == '-'
	}
	return t
}()

// ValidTraceID reports whether id is a W3C trace id: 32 lower-case hex
// digits, not all zero.
func ValidTraceID(id string) bool {
	if len(id) != 32 {
		return false
	}
	nonZero := false
	for i := 0; i < len(id); i++ {
		b := id[i]
		if (b < '0' || b > '9') && (b < 'a' || b > 'f') {
			return false
		}
		nonZero = nonZero || b != '0'
	}
	return nonZero
}
