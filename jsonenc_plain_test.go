package toolerr

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// plainByte reports whether b is a byte a JSON string holds as it is.
func plainByte(b byte) bool { return b < utf8.RuneSelf && jsonPlain[b] }

// TestNeedsEscapeEveryByteEveryPosition puts every byte value at every
// position of a word of plain bytes, and of a word of each other byte
// value: the word-wide test must agree with the per-byte table.
func TestNeedsEscapeEveryByteEveryPosition(t *testing.T) {
	for _, fill := range []byte{'a', ' ', '~', '"', 0x1f, 0x80, 0xff} {
		for pos := range 8 {
			for v := range 256 {
				var w uint64
				want := false
				for k := range 8 {
					b := fill
					if k == pos {
						b = byte(v)
					}
					w |= uint64(b) << (8 * k)
					want = want || !plainByte(b)
				}
				if got := needsEscape(w); got != want {
					t.Fatalf("fill %#x, byte %#x at %d: needsEscape = %v, want %v", fill, v, pos, got, want)
				}
			}
		}
	}
}

// TestNeedsEscapeRandomWords checks random words, with bytes drawn mostly
// near the boundaries of the table, against the per-byte table.
func TestNeedsEscapeRandomWords(t *testing.T) {
	near := []byte{0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xa2, 0xbc, 0xdc, 0xfe, 0xff}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w uint64
		want := false
		for k := range 8 {
			b := byte(rng.IntN(256))
			if rng.IntN(2) == 0 {
				b = near[rng.IntN(len(near))]
			}
			w |= uint64(b) << (8 * k)
			want = want || !plainByte(b)
		}
		if got := needsEscape(w); got != want {
			t.Fatalf("%#016x: needsEscape = %v, want %v", w, got, want)
		}
	}
}

// TestPlainPrefix checks plainPrefix against a byte loop on texts where
// the first byte to escape sits at every offset of a word and beyond.
func TestPlainPrefix(t *testing.T) {
	for n := range 40 {
		for _, stop := range []string{"", "\"", "\\", "<", ">", "&", "\n", "\x7f", "é", "\xff"} {
			s := repeatByte('x', n) + stop + "tail"
			want := 0
			for want < len(s) && plainByte(s[want]) {
				want++
			}
			if got := plainPrefix(s); got != want {
				t.Fatalf("plainPrefix(%q) = %d, want %d", s, got, want)
			}
		}
	}
}

// repeatByte returns n copies of b.
func repeatByte(b byte, n int) string {
	p := make([]byte, n)
	for i := range p {
		p[i] = b
	}
	return string(p)
}
