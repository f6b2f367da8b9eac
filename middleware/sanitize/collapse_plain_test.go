package sanitize

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// collapseByRunes is collapseAndCut's definition, one rune at a time:
// every run of white space and control characters becomes one space, both
// ends are trimmed, and the result is cut at max bytes with the mark.
func collapseByRunes(s string, max int) string {
	var b strings.Builder
	pending := false
	for _, r := range s {
		if isSpaceOrControl(r) {
			pending = b.Len() > 0
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// randomSpacedText returns text of n pieces drawn from words, single and
// double spaces, tabs, line breaks, controls, DEL, non-ASCII letters and
// spaces, with the pieces that end an 8-byte word in every position.
func randomSpacedText(r *rand.Rand, n int) string {
	pieces := []string{"a", "word", "Localhost", "12", " ", " ", " ", "  ", "\n", "\n\n", "\t", "\x00", "\x7f",
		"é", "\u00a0", "\u2028", "日本", "x", "y:z", "~", "!"}
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestPlainWordsKeepsCollapsing checks the word-at-a-time copy of
// collapseAndCut and collapsed against the rune-at-a-time definition, on
// random text and caps: the same output, and the same verdict on whether
// the text was collapsed already.
func TestPlainWordsKeepsCollapsing(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for k := 0; k < 20000; k++ {
		s := randomSpacedText(r, r.IntN(40))
		if k%3 == 0 { // long plain stretches, where the copy does the work
			s = strings.Repeat("plain words here ", r.IntN(6)) + s + strings.Repeat(" abcdefgh", r.IntN(4))
		}
		want := collapseByRunes(s, len(s)+1)
		if got, cut := collapseAndCut(s, len(s)+8); got != want || cut != 0 {
			t.Fatalf("collapseAndCut(%q) = %q, %d; want %q", s, got, cut, want)
		}
		if got := collapsed(s); got != (want == s) {
			t.Fatalf("collapsed(%q) = %v; want %v", s, got, want == s)
		}
		// With a cap: the kept text is a prefix of the whole collapsed
		// text (less a cut number and trailing space), ending in the mark.
		max := 8 + r.IntN(len(want)+2) // room for the mark
		got, _ := collapseAndCut(s, max)
		if len(got) > max {
			t.Fatalf("collapseAndCut(%q, %d) = %q: longer than the cap", s, max, got)
		}
		if kept, ok := strings.CutSuffix(got, truncationMark); ok && len(want) > max {
			if !strings.HasPrefix(want, kept) || !utf8.ValidString(got) {
				t.Fatalf("collapseAndCut(%q, %d) = %q: not a prefix of %q", s, max, got, want)
			}
		} else if got != want {
			t.Fatalf("collapseAndCut(%q, %d) = %q; want %q", s, max, got, want)
		}
	}
}
