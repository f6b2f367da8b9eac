package toolerr

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trickyStrings are the inputs where a hand-written JSON string encoder
// usually parts ways with encoding/json.
func trickyStrings() []string {
	s := []string{
		"",
		"plain ascii",
		`quote " inside`,
		`back\slash`,
		`\"`,
		"\x7f del",
		"<script>alert(1)</script>",
		"a & b > c < d",
		"\u2028 line separator",
		"paragraph \u2029 separator",
		"\u2028\u2029\u2027\u202a",
		"bad \xff\xfe utf8",
		"\x80",
		"truncated \xe2\x82",
		"\xc0\xaf overlong slash",
		"\xed\xa0\x80", // a UTF-16 surrogate encoded in UTF-8: invalid
		"\xed\xbf\xbf",
		"\xf4\x90\x80\x80", // above U+10FFFF
		"é café naïve",
		"😀 emoji 👩‍👩‍👧",
		"\ufffd already a replacement char",
		"\ufeff BOM",
		"tab\tnew\nline\rcr\bback\fform",
		"日本語",
	}
	var all strings.Builder
	for b := 0; b < 0x20; b++ {
		s = append(s, "ctl "+string(rune(b))+" end")
		all.WriteByte(byte(b))
	}
	return append(s, all.String())
}

func TestAppendStringEqualsJSONMarshal(t *testing.T) {
	for _, s := range trickyStrings() {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendString(nil, s, 0)), "%q", s)
	}
}

func TestAppendStringAppends(t *testing.T) {
	got := appendString([]byte("prefix:"), `a"b`, 0)
	assert.Equal(t, `prefix:"a\"b"`, string(got))
	got = appendString([]byte("x"), "", 0)
	assert.Equal(t, `x""`, string(got))
}

func TestAppendStringCut(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string // decoded
	}{
		{"short enough", "abc", 3, "abc"},
		{"ascii cut", "abcdef", 4, "abcd"},
		{"mid rune", "aéé", 4, "aé"},
		{"exact rune", "aéé", 5, "aéé"},
		{"emoji does not fit", "ab😀", 5, "ab"},
		{"emoji fits", "ab😀", 6, "ab😀"},
		{"invalid byte counts as three", "a\xffb", 3, "a"},
		{"invalid byte fits", "a\xffb", 4, "a\ufffd"},
		{"escaped chars count decoded", `""""`, 2, `""`},
		{"no cut at zero", strings.Repeat("x", 5000), 0, strings.Repeat("x", 5000)},
		{"no cut when negative", "abcdef", -1, "abcdef"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := appendString(nil, tc.in, tc.max)
			require.True(t, json.Valid(b), "%s", b)
			var got string
			require.NoError(t, json.Unmarshal(b, &got))
			assert.Equal(t, tc.want, got)
		})
	}
}

type taggedFallback struct {
	Name    string `json:"name"`
	Skipped string `json:"-"`
	Empty   string `json:"empty,omitempty"`
	Count   int    `json:"count,string"`
	Inner   *struct {
		X float64 `json:"x"`
	} `json:"inner"`
}

type namedInt int8

func TestAppendValueEqualsJSONMarshal(t *testing.T) {
	values := []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"true", true},
		{"false", false},
		{"int 0", 0},
		{"int", 42},
		{"negative int", -42},
		{"max int64", int64(math.MaxInt64)},
		{"min int64", int64(math.MinInt64)},
		{"int32", int32(-7)},
		{"uint", uint(7)},
		{"max uint64", uint64(math.MaxUint64)},
		{"int8 fallback", int8(-3)},
		{"uint16 fallback", uint16(65535)},
		{"named int fallback", namedInt(5)},
		{"float 0", 0.0},
		{"float negative zero", math.Copysign(0, -1)},
		{"float 1", 1.0},
		{"float -1.5", -1.5},
		{"float 1e20", 1e20},
		{"float 1e21", 1e21},
		{"float -1e21", -1e21},
		{"float 1e-6", 1e-6},
		{"float 1e-7", 1e-7},
		{"float 1.5e-9", 1.5e-9},
		{"float 1e-10", 1e-10},
		{"float 1e-100", 1e-100},
		{"float 1e100", 1e100},
		{"float 123456789.123", 123456789.123},
		{"float max", math.MaxFloat64},
		{"float smallest", math.SmallestNonzeroFloat64},
		{"float32 0.1", float32(0.1)},
		{"float32 1e21", float32(1e21)},
		{"float32 1e-7", float32(1e-7)},
		{"float32 -2.5", float32(-2.5)},
		// encoding/json compares float32 magnitudes against float32(1e-6);
		// this is the one value where a float64 comparison disagrees.
		{"float32 1e-6", float32(1e-6)},
		{"float32 -1e-6", float32(-1e-6)},
		{"string", "hé<llo>"},
		{"json.Number int", json.Number("12")},
		{"json.Number decimal", json.Number("-12.50")},
		{"json.Number exponent", json.Number("1e3")},
		{"json.Number signed exponent", json.Number("-0.5E+10")},
		{"json.Number negative zero", json.Number("-0")},
		{"json.Number empty is 0", json.Number("")},
		{"[]string", []string{"a", `b"`, "<c>", "\u2028"}},
		{"empty []string", []string{}},
		{"[]any", []any{1, "two", 3.5, true, nil, []any{"nested"}, map[string]any{"k": 1}}},
		{"empty []any", []any{}},
		{"map unsorted keys", map[string]any{"zeta": 1, "alpha": 2, "Mid": 3, "_u": 4, "a1": 5, "a": 6, "é": 7, "<k>": 8}},
		{"empty map", map[string]any{}},
		{"nested map", map[string]any{"b": map[string]any{"y": []any{1.25, "x"}, "x": nil}, "a": []string{"s"}}},
		{"Range", Range{Minimum: 1, Maximum: 100}},
		{"Range min only", Range{Minimum: 0.5}},
		{"Range max only", Range{Maximum: "z"}},
		{"Range empty", Range{}},
		{"*Range", &Range{Minimum: -1, Maximum: 1}},
		{"nil *Range", (*Range)(nil)},
		{"struct with tags (fallback)", taggedFallback{Name: "n<>", Skipped: "x", Count: 3, Inner: &struct {
			X float64 `json:"x"`
		}{X: 1e21}}},
		{"map[string]string fallback", map[string]string{"b": "1", "a": "2"}},
		{"[]int fallback", []int{3, 1, 2}},
		{"[]byte fallback", []byte("hi")},
	}
	for _, tc := range values {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.v)
			require.NoError(t, err)
			got, err := appendValue(nil, tc.v)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestAppendValueJSONNumberMustBeANumber: encoding/json refuses to write a
// json.Number that is not a number literal; appendValue must not write one
// either, or a "number" member can carry any JSON value.
func TestAppendValueJSONNumberMustBeANumber(t *testing.T) {
	for _, n := range []json.Number{"abc", "1.", "01", "+1", `"x"`, "true", "null", `{"a":1}`, "[1]", " 1", "1 "} {
		t.Run(string(n), func(t *testing.T) {
			_, wantErr := json.Marshal(n)
			require.Error(t, wantErr, "encoding/json rejects %q", n)
			got, err := appendValue(nil, n)
			assert.ErrorIs(t, err, errUnsupportedValue, "appendValue wrote %s", got)
		})
	}
}

// FuzzAppendValueJSONNumber asserts appendValue accepts exactly the
// json.Number values encoding/json accepts, and writes the same bytes.
func FuzzAppendValueJSONNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "12", "-12.50", "1e3", "1E+3", "0.5e-7", "", "01", "1.", ".5", "-", "1e", "1e+", "+1", " 1", "0x10", "NaN", "1_000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := json.Marshal(json.Number(s))
		got, err := appendValue(nil, json.Number(s))
		if (wantErr != nil) != (err != nil) {
			t.Fatalf("json.Number(%q): encoding/json error %v, appendValue error %v", s, wantErr, err)
		}
		if err == nil && string(got) != string(want) {
			t.Fatalf("json.Number(%q): appendValue %s, encoding/json %s", s, got, want)
		}
	})
}

func TestAppendValueRejectsNaNAndInf(t *testing.T) {
	for _, v := range []any{
		math.NaN(), math.Inf(1), math.Inf(-1),
		float32(math.NaN()), float32(math.Inf(1)),
		[]any{1, math.NaN()},
		map[string]any{"ok": 1, "bad": math.Inf(-1)},
		map[string]any{"deep": []any{map[string]any{"x": math.NaN()}}},
		Range{Minimum: 1, Maximum: math.Inf(1)},
		Range{Minimum: math.NaN()},
		make(chan int),
		func() {},
		map[string]any{"c": make(chan int)},
		complex(1, 2),
	} {
		_, err := appendValue(nil, v)
		assert.ErrorIs(t, err, errUnsupportedValue, "%T %v", v, v)
	}
}

func TestAppendValueAppends(t *testing.T) {
	got, err := appendValue([]byte(`{"a":`), map[string]any{"b": 1})
	require.NoError(t, err)
	assert.Equal(t, `{"a":{"b":1}`, string(got))
}

// FuzzAppendString asserts appendString without a limit equals
// json.Marshal for any string, and that a cut keeps the decoded text within
// the limit, ending on a rune boundary of the input.
func FuzzAppendString(f *testing.F) {
	for _, s := range trickyStrings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("json.Marshal(%q): %v", s, err)
		}
		got := appendString(nil, s, 0)
		if string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, json.Marshal = %s", s, got, want)
		}
		var full string
		if err := json.Unmarshal(got, &full); err != nil {
			t.Fatalf("output does not decode: %v", err)
		}
		for _, max := range []int{1, 2, 3, 4, 7, 64} {
			cut := appendString(nil, s, max)
			var dec string
			if err := json.Unmarshal(cut, &dec); err != nil {
				t.Fatalf("cut output %s does not decode: %v", cut, err)
			}
			if len(dec) > max {
				t.Fatalf("max %d: decoded %q is %d bytes", max, dec, len(dec))
			}
			if !utf8.ValidString(dec) || !strings.HasPrefix(full, dec) {
				t.Fatalf("max %d: %q is not a rune-aligned prefix of %q", max, dec, full)
			}
		}
	})
}
