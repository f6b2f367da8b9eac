package sanitize

import "strings"

// The prefilter. Every rule of the secrets and internal-hosts stages is a
// matcher anchored at one position: a separator ('=', ':', '@', '.'), a
// literal ("-----BEGIN"), a rare letter of a word, or the start of a long
// token. Without the prefilter a stage tries every rule at every position
// of the text. With it, a stage asks a cheap finder for the next position
// where the rule's anchor occurs: strings.IndexByte and strings.Index, which
// run at SIMD speed over prose, and longRuns for the token families. A rule
// gives the same findings either way, because a finder only skips
// positions where its rule cannot match; the tests compare both modes.

// finder returns the first index >= from at which a rule may match, or -1.
type finder func(s string, from int) int

// everyPosition is the finder without a prefilter: every index is tried.
func everyPosition(s string, from int) int {
	if from < len(s) {
		return from
	}
	return -1
}

// byteFinder returns a finder of the byte c, or everyPosition when the
// prefilter is off.
func byteFinder(c byte, prefilter bool) finder {
	if !prefilter {
		return everyPosition
	}
	return func(s string, from int) int {
		if from >= len(s) {
			return -1
		}
		i := strings.IndexByte(s[from:], c)
		if i < 0 {
			return -1
		}
		return from + i
	}
}

// stringFinder returns a finder of the literal lit, or everyPosition when
// the prefilter is off.
func stringFinder(lit string, prefilter bool) finder {
	if !prefilter {
		return everyPosition
	}
	return func(s string, from int) int {
		if from >= len(s) {
			return -1
		}
		i := strings.Index(s[from:], lit)
		if i < 0 {
			return -1
		}
		return from + i
	}
}

// minTokenLen is the shortest token any token rule matches (prefix
// included). A run of that many bytes without white space always contains
// one whole aligned 8-byte word without white space, which is what longRuns
// looks for; tokenRules checks the bound when it is built.
const minTokenLen = 15

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasSpaceByte reports whether a byte of the little-endian word w is at most
// ' ' (white space or a C0 control). It is the exact "has less than"
// bit trick, valid for bytes below 0x80; bytes >= 0x80 never count.
func hasSpaceByte(w uint64) bool {
	return (w-lsb*0x21)&^w&msb != 0
}

// load64 reads the 8 bytes of s at i as a little-endian word. Slicing
// first leaves one bounds check; indexing s[i+1]…s[i+7] would check each.
func load64(s string, i int) uint64 { return word(s[i : i+8]) }

// longRuns calls f(start, end) for each maximal run s[start:end] of bytes
// above ' ' that holds a whole aligned 8-byte word, in order. Every run of
// minTokenLen or more such bytes is reported; prose, whose words are short,
// yields few runs. It tests 8 bytes at a time.
func longRuns(s string, f func(start, end int)) {
	i := 0
	for i+8 <= len(s) {
		if hasSpaceByte(load64(s, i)) {
			i += 8
			continue
		}
		start := i
		for start > 0 && s[start-1] > ' ' {
			start--
		}
		end := i + 8
		for end < len(s) && s[end] > ' ' {
			end++
		}
		f(start, end)
		i = (end + 8) &^ 7 // the next aligned word past the run's end
	}
	// The tail is shorter than one word: a run ending there either holds
	// an aligned word already reported, or is shorter than minTokenLen.
}
