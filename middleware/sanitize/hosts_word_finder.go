package sanitize

import "strings"

// Finding a host name word ("localhost", the server's own name) in any
// case, through its rarest byte: a byte that is no letter ('-', a digit),
// which prose rarely holds, or else its rarest letter in either case.
// (A search for the rarest pair of adjacent letters, 8 bytes at a time,
// measured no faster on prose than strings.IndexByte's SIMD search for
// one letter and its capital: see BENCHMARKS.md.)

// wordRule finds a host name word in any case through its rarest byte.
type wordRule struct {
	word   string // lower case
	anchor int    // index in word of the byte the finders look for
	find   []finder
}

// letterRarity orders lower-case letters from the most to the least common
// in English text.
const letterRarity = "etaoinshrdlcumwfgypbvkjxqz"

// rarity ranks the byte c: higher is rarer in prose. Digits, '-' and other
// bytes are rarer than any letter.
func rarity(c byte) int {
	if i := strings.IndexByte(letterRarity, c); i >= 0 {
		return i
	}
	return len(letterRarity) + 4
}

// newWordRule returns the rule of the lower-case word w, anchored at its
// rarest byte; a letter is looked for in both cases.
func newWordRule(w string, prefilter bool) wordRule {
	best, bestRank := 0, -1
	for k := 0; k < len(w); k++ {
		if r := rarity(w[k]); r > bestRank {
			best, bestRank = k, r
		}
	}
	c := w[best]
	r := wordRule{word: w, anchor: best, find: []finder{byteFinder(c, prefilter)}}
	if up := c &^ 0x20; isLetterByte(c) && prefilter {
		r.find = append(r.find, byteFinder(up, true))
	}
	return r
}
