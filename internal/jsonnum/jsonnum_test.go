package jsonnum

import (
	"encoding/json"
	"testing"
)

// validByEncodingJSON is the definition Valid must meet: encoding/json
// reads s as one value that is a number, with nothing around it.
func validByEncodingJSON(s string) bool {
	if s == "" || !(s[0] == '-' || isDigit(s[0])) || !isDigit(s[len(s)-1]) {
		return false
	}
	return json.Valid([]byte(s))
}

func TestValid(t *testing.T) {
	for _, s := range []string{"0", "-0", "-12", "3.25", "1e9", "6.02E+23", "1E-7", "4242424242424242", "0.5e0"} {
		if !Valid(s) || !Valid([]byte(s)) {
			t.Errorf("Valid(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "12a", " 1", "1 ", "4242 4242", "NaN", "Infinity", "0x10", "1_000"} {
		if Valid(s) || Valid([]byte(s)) {
			t.Errorf("Valid(%q) = true", s)
		}
	}
}

func TestEnd(t *testing.T) {
	for _, tc := range []struct {
		s    string
		i    int
		want int
	}{
		{`[12,3]`, 1, 3},
		{`{"a":-0.5e3}`, 5, 11},
		{`[01]`, 1, 2}, // "0" ends the number; the '1' after it is the caller's to refuse
		{`[-]`, 1, -1},
		{`[1.]`, 1, -1},
		{`[x]`, 1, -1},
		{`1`, 1, -1},
	} {
		if got := End(tc.s, tc.i); got != tc.want {
			t.Errorf("End(%q, %d) = %d; want %d", tc.s, tc.i, got, tc.want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range []string{"0", "-12.5e+3", "01", "1.", "1e", " 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Valid(s), validByEncodingJSON(s); got != want {
			t.Fatalf("Valid(%q) = %v; encoding/json says %v", s, got, want)
		}
	})
}
