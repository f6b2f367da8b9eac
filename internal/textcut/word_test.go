package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAtWord(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc def", 10, "abc def"},
		{"abc def", 7, "abc def"},
		{"abc def", 3, "abc"},
		{"abc def", 4, "abc"},
		{"abc def", 5, "abc"},
		{"abc def", 6, "abc"},
		{"abcdef", 3, ""},
		{"abc\tdef", 5, "abc"},
		{"abc  \n def", 8, "abc"},     // the white space before the cut word goes
		{" abc def ", 9, " abc def "}, // a text that fits is left as it is
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"card 4242 4242 4242 4242 declined", 16, "card"}, // the groups of a number across the cut go
		{"status 503 Service Unavailable", 12, "status 503"},
	} {
		if got := AtWord(tc.s, tc.n); got != tc.want {
			t.Errorf("AtWord(%q, %d) = %q; want %q", tc.s, tc.n, got, tc.want)
		}
		if got := AtWord([]byte(tc.s), tc.n); string(got) != tc.want {
			t.Errorf("AtWord([]byte(%q), %d) = %q; want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// token is a GitHub token format the sanitizer redacts only whole.
const token = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"

// TestAtWordDropsALongWordWhole: the word the cap runs through goes
// however long it is, so no cap inside a token leaves a fragment of it,
// not even when the token is the whole text or longer than the cap.
func TestAtWordDropsALongWordWhole(t *testing.T) {
	for _, prefix := range []string{"", "bad credentials ", "x "} {
		s := prefix + token + " tail"
		for n := len(prefix) + 1; n < len(prefix)+len(token); n++ {
			got := AtWord(s, n)
			if strings.Contains(got, token[:4]) {
				t.Fatalf("AtWord(%q, %d) = %q keeps part of the token", s, n, got)
			}
			if want := strings.TrimSpace(prefix); got != want {
				t.Fatalf("AtWord(%q, %d) = %q; want %q", s, n, got, want)
			}
		}
	}
}

func TestDropLastWord(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"a b cd", "a b"},
		{"abcd", ""},
		{"", ""},
		{" ", ""},
		{"a b ", "a b"}, // the cut fell after "b": it stays
		{"a\tb\ncd", "a\tb"},
		{"card 4242 4242 4242 42", "card"},
		{"card 4242 4242 ", "card"}, // a number that ends the text may go on past the cut
		{"pay " + token[:20], "pay"},
	} {
		if got := DropLastWord(tc.s); got != tc.want {
			t.Errorf("DropLastWord(%q) = %q; want %q", tc.s, got, tc.want)
		}
		if got := DropLastWord([]byte(tc.s)); string(got) != tc.want {
			t.Errorf("DropLastWord([]byte(%q)) = %q; want %q", tc.s, got, tc.want)
		}
	}
}

func TestAtRune(t *testing.T) {
	s := "a€b" // '€' is 3 bytes: s[1:4]
	for n, want := range map[int]string{-1: "", 0: "", 1: "a", 2: "a", 3: "a", 4: "a€", 5: "a€b", 9: "a€b"} {
		if got := AtRune(s, n); got != want {
			t.Errorf("AtRune(%q, %d) = %q; want %q", s, n, got, want)
		}
		if got := AtRune([]byte(s), n); string(got) != want {
			t.Errorf("AtRune([]byte(%q), %d) = %q; want %q", s, n, got, want)
		}
	}
	// A cap inside a word keeps the word's start: AtRune has no word policy.
	if got := AtRune("abc def", 5); got != "abc d" {
		t.Errorf("AtRune = %q", got)
	}
}

// TestCutsAllocateNothing: the cuts are slices of their input.
func TestCutsAllocateNothing(t *testing.T) {
	s := strings.Repeat("word ", 100)
	b := []byte(s)
	if n := testing.AllocsPerRun(100, func() {
		_ = AtWord(s, 203)
		_ = AtWord(b, 203)
		_ = DropLastWord(s[:203])
		_ = AtRune(s, 203)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func TestRuneEnd(t *testing.T) {
	s := "aé€😀"
	for n := -1; n <= len(s)+1; n++ {
		e := RuneEnd(s, n)
		if !utf8.ValidString(s[:e]) || e > max(n, 0) {
			t.Errorf("RuneEnd(%q, %d) = %d", s, n, e)
		}
	}
	if RuneEnd(s, 4) != 3 {
		t.Error("a cut inside € steps back to its start")
	}
}
