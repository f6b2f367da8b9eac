package textcut

import (
	"strings"
	"testing"
)

func TestNumberStart(t *testing.T) {
	for _, tc := range []struct {
		s    string // the cut falls at '|'
		want string // what is kept
	}{
		{"card 4242 4242 4242 42|42 declined", "card "},
		{"card 4242 4242 4242 |4242 declined", "card "},
		{"card 4242 4242 4242| 4242 declined", "card "},
		{"card 4242-4242-4242-|4242", "card "},
		{"card 4242424242|424242", "card "},
		{"ord_4242 4242|4242", "ord_"},
		{"status 503| Service Unavailable", "status 503"},
		{"status 503 |Service Unavailable", "status 503 "},
		{"wait |30 seconds", "wait "},
		{"the end|", "the end"},
		{"|4242", ""},
		{"4242 4242|", "4242 4242"},
		{"a 1  \n  |2", "a "}, // white space of any length joins groups, as the card rule reads them
	} {
		i := strings.IndexByte(tc.s, '|')
		s := tc.s[:i] + tc.s[i+1:]
		if got := s[:NumberStart(s, i, false)]; got != tc.want {
			t.Errorf("NumberStart(%q) keeps %q; want %q", tc.s, got, tc.want)
		}
		if got := NumberStart([]byte(s), i, false); got != len(tc.want) {
			t.Errorf("NumberStart([]byte(%q)) = %d; want %d", tc.s, got, len(tc.want))
		}
	}
	if NumberStart("abc", -1, false) != 0 || NumberStart("abc", 9, false) != 3 {
		t.Error("an index outside s is clamped")
	}
}

// TestNumberStartTruncated: a text cut off at its end may have had more
// groups after it: its trailing number goes when the cut leaves only
// separators, or nothing, after it.
func TestNumberStartTruncated(t *testing.T) {
	for _, tc := range []struct {
		s     string
		i     int
		want  int
		plain int // the same cut of a text that was not truncated
	}{
		{"card 4242 4242 ", 14, 5, 14},
		{"card 4242 4242", 14, 5, 14},
		{"card 4242 4242 declined", 14, 14, 14},
		{"status 503", 10, 7, 10},
		{"the end ", 7, 7, 7},
	} {
		if got := NumberStart(tc.s, tc.i, true); got != tc.want {
			t.Errorf("NumberStart(%q, %d, true) = %d; want %d", tc.s, tc.i, got, tc.want)
		}
		if got := NumberStart(tc.s, tc.i, false); got != tc.plain {
			t.Errorf("NumberStart(%q, %d, false) = %d; want %d", tc.s, tc.i, got, tc.plain)
		}
	}
}

// TestNumberStartReadsOtherScriptsDigits: a number written in full-width
// or Arabic-Indic digits, with ASCII, ideographic or full-width
// separators, loses every group before a cut that runs through it, as an
// ASCII one does: the card rule reads those digits too.
func TestNumberStartReadsOtherScriptsDigits(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"カード番号：４４１４ １５８６ ５４２０ ０５８", "カード番号："},
		{"card ４４１４\u3000１５８６\u3000５４２０\u3000０５", "card "},
		{"card ４４１４－１５８６－５４２０－０５", "card "},
		{"رقم ٤٤١٤ ١٥٨٦ ٥٤٢٠ ٠٥", "رقم "},
		{"order ４４１４ is late", "order ４４１４ is"},
	} {
		got := DropLastWord(tc.s)
		if string(got) != tc.want && strings.TrimSpace(string(got)) != strings.TrimSpace(tc.want) {
			t.Errorf("DropLastWord(%q) = %q, want %q", tc.s, got, tc.want)
		}
		if b := DropLastWord([]byte(tc.s)); string(b) != string(got) {
			t.Errorf("DropLastWord over bytes = %q, over a string %q", b, got)
		}
	}
}
