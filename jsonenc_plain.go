package toolerr

// plainPrefix returns the length of the longest prefix of s whose bytes a
// JSON string holds as they are (jsonPlain), testing eight bytes at a time:
// error texts are mostly plain ASCII, and a word-wide test is several times
// faster than a table lookup per byte.
func plainPrefix(s string) int {
	i := 0
	for ; i+16 <= len(s); i += 16 {
		// Two words per round, tested together: one branch per 16 bytes.
		if escapeMask(load64(s[i:i+8]))|escapeMask(load64(s[i+8:i+16])) != 0 {
			break
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if needsEscape(load64(s[i : i+8])) {
			break
		}
	}
	for ; i < len(s) && s[i] < 0x80 && jsonPlain[s[i]]; i++ {
	}
	return i
}

// load64 returns the first eight bytes of b as a little-endian word; with
// the bounds checked once, the compiler merges the byte loads into one.
func load64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
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
func needsEscape(w uint64) bool { return escapeMask(w) != 0 }

// escapeMask is needsEscape's test: non-zero when some byte needs escaping.
func escapeMask(w uint64) uint64 {
	low := w & ^uint64(highs) // the high bits are tested on their own
	quote, backslash, amp := w^'"'*ones, w^'\\'*ones, w^'&'*ones
	angle := (w &^ (0x02 * ones)) ^ '<'*ones // '<' 0x3c or '>' 0x3e
	m := w |                                 // a high bit
		(low-0x20*ones)&^low | // a control byte
		(quote-ones)&^quote |
		(backslash-ones)&^backslash |
		(amp-ones)&^amp |
		(angle-ones)&^angle
	return m & highs
}
