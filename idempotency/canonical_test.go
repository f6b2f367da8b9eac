package idempotency

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCanonicalizeRFC8785Examples checks the examples of RFC 8785 sections
// 3.2.2 (whitespace, numbers, string escapes) and 3.2.3 (member sorting).
func TestCanonicalizeRFC8785Examples(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "3.2.2 serialization",
			in: `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			// RFC 8785 prints 333333333.3333333, the shortest text of the
			// double nearest to 333333333.33333329; that rounding is the one
			// deviation of Canonicalize (see the package documentation).
			want: `{"literals":[null,true,false],"numbers":[333333333.33333329,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			name: "3.2.3 sorting",
			in: `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			want: "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\"," +
				"\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\"," +
				"\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// TestCanonicalizeValid checks whitespace, literals, strings, member order
// and nesting, and that canonicalizing the output changes nothing.
func TestCanonicalizeValid(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"null", " null ", "null"},
		{"true", "\t\r\ntrue\n", "true"},
		{"false", "false", "false"},
		{"empty string", `""`, `""`},
		{"empty array", "[ ]", "[]"},
		{"empty object", "{ }", "{}"},
		{"short escapes", `"\b\t\n\f\r\"\\\/"`, `"\b\t\n\f\r\"\\/"`},
		{"other controls", `"\u0000\u0001\u001F\u000B\u001e"`, `"\u0000\u0001\u001f\u000b\u001e"`},
		{"DEL literal", `"\u007f"`, "\"\x7f\""},
		{"escaped ASCII", `"\u0041\u0062"`, `"Ab"`},
		{"non-ASCII unescaped", `"\u00e9\u4E2D\u2028\u2029\ufeff"`, "\"é中\u2028\u2029\ufeff\""},
		{"non-ASCII literal", `"héllo 世界 😀"`, `"héllo 世界 😀"`},
		{"surrogate pair", `"\uD83D\uDE00\ud800\udc00\udbff\udfff"`, "\"😀\U00010000\U0010ffff\""},
		{"html not escaped", `"<a href='x'>&</a>"`, `"<a href='x'>&</a>"`},
		{"array", `[1, "a" , [ ] ,{} , null]`, `[1,"a",[],{},null]`},
		{"array keeps order", `[3,1,2]`, `[3,1,2]`},
		{"members sorted", `{"b":1,"a":2,"c":3}`, `{"a":2,"b":1,"c":3}`},
		{"prefix first", `{"ab":1,"a":2,"":3}`, `{"":3,"a":2,"ab":1}`},
		{"case", `{"a":1,"B":2,"_":3}`, `{"B":2,"_":3,"a":1}`},
		{"names compared unescaped", `{"\u0062":1,"a":2}`, `{"a":2,"b":1}`},
		{"escaped quote name", `{"a":1,"\"":2,"\\":3}`, `{"\"":2,"\\":3,"a":1}`},
		{"control name", `{"a":1,"\u0001":2,"\n":3}`, `{"\u0001":2,"\n":3,"a":1}`},
		{"astral before private use", "{\"\ue000\":1,\"\U0001F600\":2,\"\uffff\":3,\"\ud7ff\":4}",
			"{\"\ud7ff\":4,\"\U0001F600\":2,\"\ue000\":1,\"\uffff\":3}"},
		{"astral order", "{\"\U0010FFFF\":1,\"\U00010000\":2}", "{\"\U00010000\":2,\"\U0010FFFF\":1}"},
		{"nested sorted", `{"z":{"y":[{"b":1,"a":[1.0,{"d":0,"c":-0}]}],"x":true},"a":null}`,
			`{"a":null,"z":{"x":true,"y":[{"a":[1,{"c":0,"d":0}],"b":1}]}}`},
		{"deep nesting", strings.Repeat("[", MaxCanonicalDepth) + strings.Repeat("]", MaxCanonicalDepth),
			strings.Repeat("[", MaxCanonicalDepth) + strings.Repeat("]", MaxCanonicalDepth)},
		{"tool call", `{ "amount": 10.50, "currency": "EUR", "customer": {"id": 42, "email": "a@b.c"},
			"lines": [ {"sku": "X-1", "qty": 2e0} ] }`,
			`{"amount":10.5,"currency":"EUR","customer":{"email":"a@b.c","id":42},"lines":[{"qty":2,"sku":"X-1"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			again, err := Canonicalize(got)
			require.NoError(t, err)
			assert.Equal(t, string(got), string(again), "not idempotent")
			assert.True(t, json.Valid(got))
		})
	}
}

// TestCanonicalizeInvalid checks that malformed JSON and JSON outside the
// I-JSON subset are rejected with ErrInvalidJSON.
func TestCanonicalizeInvalid(t *testing.T) {
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"whitespace only", " \n"},
		{"trailing value", "1 2"},
		{"trailing comma", "[1,]"},
		{"trailing garbage", `{"a":1}x`},
		{"BOM", "\ufeff{}"},
		{"leading zero", "01"},
		{"leading zero negative", "-01"},
		{"plus sign", "+1"},
		{"bare minus", "-"},
		{"no integer part", ".5"},
		{"no fraction digits", "1."},
		{"no exponent digits", "1e"},
		{"exponent sign only", "1e+"},
		{"hex", "0x10"},
		{"NaN", "NaN"},
		{"Infinity", "Infinity"},
		{"exponent beyond the bound", "1e1000000000"},
		{"negative exponent beyond the bound", "-1e-1000000001"},
		{"exponent of 19 digits", "[1,1e1000000000000000000]"},
		{"exponent bound in array", "[1,0.1e-999999999]"},
		{"bad literal", "nul"},
		{"capital literal", "True"},
		{"single quotes", "'a'"},
		{"unterminated string", `"abc`},
		{"raw newline", "\"a\nb\""},
		{"raw tab", "\"a\tb\""},
		{"bad escape", `"\x41"`},
		{"short unicode escape", `"\u12"`},
		{"bad hex", `"\u12g4"`},
		{"lone high surrogate", `"\ud800"`},
		{"high surrogate then text", `"\ud800abcdef"`},
		{"high surrogate twice", `"\ud800\ud800"`},
		{"lone low surrogate", `"\udc00"`},
		{"reversed pair", `"\ude00\ud83d"`},
		{"invalid UTF-8", "\"\xff\""},
		{"truncated UTF-8", "\"\xe2\x82\""},
		{"overlong UTF-8", "\"\xc0\xaf\""},
		{"UTF-8 surrogate", "\"\xed\xa0\x80\""},
		{"duplicate name", `{"a":1,"a":2}`},
		{"duplicate after unescape", `{"a":1,"\u0061":2}`},
		{"duplicate nested", `[{"b":{"x":1,"y":2,"x":3}}]`},
		{"duplicate astral", `{"😀":1,"\ud83d\ude00":2}`},
		{"missing colon", `{"a" 1}`},
		{"missing value", `{"a":}`},
		{"non-string name", `{1:2}`},
		{"unterminated object", `{"a":1`},
		{"unterminated array", `[1`},
		{"comment", "[1 /* x */]"},
		{"too deep", strings.Repeat("[", MaxCanonicalDepth+1) + strings.Repeat("]", MaxCanonicalDepth+1)},
		{"too deep objects", strings.Repeat(`{"a":`, MaxCanonicalDepth+1) + "1" + strings.Repeat("}", MaxCanonicalDepth+1)},
		{"very deep", strings.Repeat("[", 1<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			require.ErrorIs(t, err, ErrInvalidJSON)
			assert.Nil(t, got)
		})
	}
}

// TestCompareUTF16 checks compareUTF16 against a comparison of the strings'
// UTF-16 code units, for every pair of a set of strings that mixes ASCII,
// BMP, private-use, last-BMP and astral characters.
func TestCompareUTF16(t *testing.T) {
	alphabet := []rune{0, 'A', 'a', 0x7f, 0x80, 0xff, 0x100, 0x7ff, 0x800, 0xd7ff,
		0xe000, 0xf8ff, 0xfb33, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0xfffff, 0x10ffff}
	var words []string
	for _, a := range alphabet {
		words = append(words, string(a))
		for _, b := range alphabet {
			words = append(words, string([]rune{a, b}))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		w := make([]rune, r.IntN(5))
		for i := range w {
			w[i] = alphabet[r.IntN(len(alphabet))]
		}
		words = append(words, string(w))
	}
	want := func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	}
	for _, a := range words {
		for _, b := range words[:300] {
			require.Equal(t, want(a, b), compareUTF16([]byte(a), []byte(b)), "%+q vs %+q", a, b)
			require.Equal(t, want(b, a), compareUTF16([]byte(b), []byte(a)), "%+q vs %+q", b, a)
		}
	}
}

// TestCanonicalizeSortsLikeUTF16 checks the member order of objects built
// from random names against a sort by UTF-16 code units.
func TestCanonicalizeSortsLikeUTF16(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []rune{'a', 'b', '"', '\\', '\n', 0x7f, 0xe9, 0xd7ff, 0xe000, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	for range 200 {
		set := map[string]bool{}
		for range r.IntN(20) {
			w := make([]rune, r.IntN(4))
			for i := range w {
				w[i] = alphabet[r.IntN(len(alphabet))]
			}
			set[string(w)] = true
		}
		obj := map[string]int{}
		var names []string
		for name := range set { // random order
			obj[name] = len(names)
			names = append(names, name)
		}
		var in strings.Builder
		in.WriteString("{")
		for i, name := range names {
			if i > 0 {
				in.WriteString(" , ")
			}
			q, err := json.Marshal(name)
			require.NoError(t, err)
			in.Write(q)
			in.WriteString(": " + strconv.Itoa(obj[name]))
		}
		in.WriteString("}")
		got, err := Canonicalize([]byte(in.String()))
		require.NoError(t, err)

		slices.SortFunc(names, func(a, b string) int {
			return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		})
		want := []byte{'{'}
		for i, name := range names {
			if i > 0 {
				want = append(want, ',')
			}
			want = appendString(want, []byte(name))
			want = append(want, ':')
			want = strconv.AppendInt(want, int64(obj[name]), 10)
		}
		want = append(want, '}')
		require.Equal(t, string(want), string(got))
	}
}

// TestCanonicalizeConcurrent checks that concurrent calls, which share
// pooled scratch buffers, do not interfere (run with -race).
func TestCanonicalizeConcurrent(t *testing.T) {
	inputs := []string{`{"b":[1.0,{"y":1,"x":2}],"a":"\u00e9"}`, `{"z":1,"a":{"c":2,"b":3}}`, `[1e21,"x",{"\ue000":1,"😀":2}]`, `{"a":1,"a":2}`}
	want := make([]string, len(inputs))
	for i, in := range inputs {
		out, _ := Canonicalize([]byte(in))
		want[i] = string(out)
	}
	t.Parallel()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				k := (g + i) % len(inputs)
				out, _ := Canonicalize([]byte(inputs[k]))
				assert.Equal(t, want[k], string(out))
			}
		})
	}
	wg.Wait()
}
