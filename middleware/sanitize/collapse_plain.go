package sanitize

// plainWords returns the end of the longest run of whole 8-byte words
// from s[i], at most max bytes, that collapsing leaves as they are:
// printable ASCII bytes and single spaces, with no space first when
// afterSpace (the byte before, or the start of the output, stands for
// one) and a space last only when a printable byte other than a space
// follows. It returns i when the first word is not plain. It tests a word
// in a few operations, so collapsing prose costs a copy, not a loop over
// its bytes.
func plainWords(s string, i, max int, afterSpace bool) int {
	j := i
	for j+8 <= len(s) && j+8-i <= max {
		w := load64(s, j)
		sp := byteMask(w, ' ')
		// A byte >= 0x80 (w&msb), below ' ' ("has less than" 0x20, exact
		// for bytes below 0x80), 0x7f, or two spaces side by side.
		if w&msb != 0 || (w-lsb*0x20)&^w&msb != 0 || byteMask(w, 0x7f) != 0 || sp&(sp<<8) != 0 {
			break
		}
		if afterSpace && sp&0x80 != 0 {
			break
		}
		if afterSpace = sp>>63 != 0; afterSpace && (j+8 == len(s) || s[j+8] <= ' ' || s[j+8] >= 0x7f) {
			break
		}
		j += 8
	}
	return j
}

// byteMask returns the high bit of each byte of the little-endian word w
// that equals c, and no other bit: the exact "has zero byte" test on
// w ^ c, without the borrows that make the shorter one inexact past the
// first match.
func byteMask(w uint64, c byte) uint64 {
	x := w ^ (lsb * uint64(c))
	return ^(((x &^ msb) + lsb*0x7f) | x) & msb
}
