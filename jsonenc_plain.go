package toolerr

// plainPrefix returns the length of the longest prefix of s whose bytes a
// JSON string holds as they are (jsonPlain), testing eight bytes at a time:
// error texts are mostly plain ASCII, and a word-wide test is several times
// faster than a table lookup per byte.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// Little-endian load of s[i:i+8]; the compiler merges the loads.
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if needsEscape(w) {
			break
		}
	}
	for ; i < len(s) && s[i] < 0x80 && jsonPlain[s[i]]; i++ {
	}
	return i
}

// Word-wide byte tests: ones has 0x01 in every byte, highs 0x80.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// needsEscape reports whether any of the eight bytes of w is not plain
// ASCII for a JSON string: a control byte, '"', '\\', '<', '>', '&', or a
// byte of a multi-byte rune (0x80 and up). Each test is the classic "has a
// zero byte" trick, exact for whether any byte matches: (x - ones) & ^x &
// highs is non-zero exactly when some byte of x is zero, and with x's high
// bits clear, (x - n*ones) & ^x & highs finds a byte below n.
func needsEscape(w uint64) bool {
	low := w & ^uint64(highs) // the high bits are tested on their own
	quote, backslash, amp := w^'"'*ones, w^'\\'*ones, w^'&'*ones
	angle := (w &^ (0x02 * ones)) ^ '<'*ones // '<' 0x3c or '>' 0x3e
	m := w |                                 // a high bit
		(low-0x20*ones)&^low | // a control byte
		(quote-ones)&^quote |
		(backslash-ones)&^backslash |
		(amp-ones)&^amp |
		(angle-ones)&^angle
	return m&highs != 0
}
