package asciifold

import (
	"bytes"
	"strings"
	"testing"
)

func TestLower(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := byte(c)
		if c >= 'A' && c <= 'Z' {
			want = byte(c) + 32
		}
		if got := Lower(byte(c)); got != want {
			t.Errorf("Lower(%#x) = %#x; want %#x", c, got, want)
		}
	}
}

func TestHasPrefix(t *testing.T) {
	for _, tc := range []struct {
		s, prefix string
		want      bool
	}{
		{"<TITLE>x", "<title", true},
		{"<title", "<title", true},
		{"<titl", "<title", false},
		{"", "", true},
		{"abc", "", true},
		{"Bearer x", "bearer", true},
		{"bearer", "Bearer", false}, // an upper-case needle matches nothing
		{"\u212aey", "key", false},  // the Kelvin sign is no ASCII 'k'
		{"[ey", "{ey", false},       // '[' | 0x20 is '{': only letters fold
	} {
		if got := HasPrefix(tc.s, tc.prefix); got != tc.want {
			t.Errorf("HasPrefix(%q, %q) = %v", tc.s, tc.prefix, got)
		}
		if got := HasPrefix([]byte(tc.s), tc.prefix); got != tc.want {
			t.Errorf("HasPrefix([]byte(%q), %q) = %v", tc.s, tc.prefix, got)
		}
	}
}

// indexNaive is the definition Index must meet: the first i at which s
// holds needle, ignoring ASCII case.
func indexNaive(s []byte, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if HasPrefix(s[i:], needle) {
			return i
		}
	}
	return -1
}

// header is a type defined on string, which Index reads byte by byte.
type header string

func TestIndex(t *testing.T) {
	for _, c := range []struct {
		s, needle string
		want      int
	}{
		{"", "", 0},
		{"abc", "", 0},
		{"", "a", -1},
		{"<TITLE>x</title>", "<title", 0},
		{"xx Error Code: 1020", "error code:", 3},
		{"error cod", "error code", -1},
		{"cf_chl", "cf_chl_opt", -1},
		{"a CF_CHL_OPT b cf_chl_opt", "cf_chl_opt", 2},
		{"Sorry, you have been BLOCKED", "sorry, you have been blocked", 0},
		{"zzzzQzq", "zq", 3},
		{"ZQ", "zq", 0},
		{"_x_y_", "_y_", 2},
		{"application/Problem+JSON", "problem+json", 12},
	} {
		if got := Index([]byte(c.s), c.needle); got != c.want {
			t.Errorf("Index([]byte(%q), %q) = %d, want %d", c.s, c.needle, got, c.want)
		}
		if got := Index(c.s, c.needle); got != c.want {
			t.Errorf("Index(%q, %q) = %d, want %d", c.s, c.needle, got, c.want)
		}
		if got := Index(header(c.s), c.needle); got != c.want {
			t.Errorf("Index(header(%q), %q) = %d, want %d", c.s, c.needle, got, c.want)
		}
		if got := Contains(c.s, c.needle); got != (c.want >= 0) {
			t.Errorf("Contains(%q, %q) = %v", c.s, c.needle, got)
		}
	}
}

// TestFoldAllocatesNothing: the helpers run on the sanitizer's and the
// translators' hot paths.
func TestFoldAllocatesNothing(t *testing.T) {
	page := strings.Repeat("<p>Lorem ipsum dolor sit amet</p>\n", 100) + "<TITLE>Just a moment</TITLE>"
	b := []byte(page)
	if n := testing.AllocsPerRun(100, func() {
		_ = Index(page, "<title")
		_ = Index(b, "just a moment")
		_ = Contains(header(page), "<title")
		_ = HasPrefix(b, "<p>lorem")
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func FuzzIndex(f *testing.F) {
	f.Add([]byte("<html><TITLE>Just a moment...</TITLE>"), "<title")
	f.Add([]byte("error code: 1020"), "error code:")
	f.Add([]byte("aAaAa"), "aa")
	f.Fuzz(func(t *testing.T, b []byte, needle string) {
		if len(b) > 1<<14 || len(needle) > 64 {
			return // needles are short constants; the naive search is quadratic
		}
		needle = string(bytes.ToLower([]byte(needle)))
		want := indexNaive(b, needle)
		if got := Index(b, needle); got != want {
			t.Fatalf("Index(%q, %q) = %d, want %d", b, needle, got, want)
		}
		if got := Index(string(b), needle); got != want {
			t.Fatalf("Index(string(%q), %q) = %d, want %d", b, needle, got, want)
		}
	})
}
