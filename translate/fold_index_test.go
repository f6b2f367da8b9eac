package translate

import (
	"bytes"
	"testing"
)

// indexFoldNaive is the definition indexFold must meet: the first i at
// which b holds needle, ignoring ASCII case.
func indexFoldNaive(b []byte, needle string) int {
	for i := 0; i+len(needle) <= len(b); i++ {
		if hasPrefixFold(b[i:], needle) {
			return i
		}
	}
	return -1
}

func TestIndexFold(t *testing.T) {
	cases := []struct {
		b, needle string
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
	}
	for _, c := range cases {
		if got := indexFold([]byte(c.b), c.needle); got != c.want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", c.b, c.needle, got, c.want)
		}
	}
}

func FuzzIndexFold(f *testing.F) {
	f.Add([]byte("<html><TITLE>Just a moment...</TITLE>"), "<title")
	f.Add([]byte("error code: 1020"), "error code:")
	f.Add([]byte("aAaAa"), "aa")
	f.Fuzz(func(t *testing.T, b []byte, needle string) {
		if len(b) > 1<<14 || len(needle) > 64 {
			return // needles are short constants; the naive search is quadratic
		}
		needle = string(bytes.ToLower([]byte(needle)))
		if got, want := indexFold(b, needle), indexFoldNaive(b, needle); got != want {
			t.Fatalf("indexFold(%q, %q) = %d, want %d", b, needle, got, want)
		}
	})
}
