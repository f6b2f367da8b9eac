package idempotency

import (
	"encoding/json"
	"math"
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

// TestAppendNumberRFC8785 checks the number serialization samples of
// RFC 8785 Appendix B (IEEE-754 bit patterns and their expected text).
func TestAppendNumberRFC8785(t *testing.T) {
	tests := []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	}
	for _, tt := range tests {
		t.Run(strconv.FormatUint(tt.bits, 16), func(t *testing.T) {
			f := math.Float64frombits(tt.bits)
			assert.Equal(t, tt.want, string(appendNumber(nil, f)))
			// The same through Canonicalize, from Go's own spelling of f.
			got, err := Canonicalize(strconv.AppendFloat(nil, f, 'g', -1, 64))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// TestCanonicalizeNumbers checks numbers as written in JSON text.
func TestCanonicalizeNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"-0.0", "0"}, {"0e10", "0"}, {"-0E-5", "0"},
		{"1", "1"}, {"1.0", "1"}, {"1.000000", "1"}, {"-1", "-1"}, {"100", "100"},
		{"1e2", "100"}, {"1E+2", "100"}, {"10.5", "10.5"}, {"4.50", "4.5"},
		{"2e-3", "0.002"}, {"0.1", "0.1"}, {"-0.5", "-0.5"}, {"123.456", "123.456"},
		{"1e21", "1e+21"}, {"1e20", "100000000000000000000"},
		{"123456789012345678901", "123456789012345680000"},
		{"12345678901234567890", "12345678901234567000"},
		{"9007199254740993", "9007199254740992"},
		{"1e-7", "1e-7"}, {"1e-6", "0.000001"}, {"0.000001", "0.000001"},
		{"0.0000001", "1e-7"}, {"1.5e-7", "1.5e-7"}, {"0.00000123", "0.00000123"},
		{"1.5e300", "1.5e+300"}, {"-1.5e300", "-1.5e+300"}, {"1E30", "1e+30"},
		{"0.000000000000000000000000001", "1e-27"}, {"123e-20", "1.23e-18"},
		{"333333333.33333329", "333333333.3333333"}, {"0.30000000000000004", "0.30000000000000004"},
		{"1e-400", "0"}, {"-1e-400", "0"}, {"4.9e-324", "5e-324"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"},
		{"1.7976931348623158e308", "1.7976931348623157e+308"},
		{"00000000000000000000000000000000000000000000000000000000001e1", ""},
		{"0." + strings.Repeat("0", 400) + "1e400", "0.1"},
		{"1" + strings.Repeat("0", 400) + "e-400", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			if tt.want == "" {
				require.ErrorIs(t, err, ErrInvalidJSON)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// TestAppendNumberMatchesEncodingJSON compares appendNumber with
// encoding/json, whose float64 encoding is specified to follow ECMAScript's
// number-to-string conversion, on random doubles of every magnitude and on
// short decimals; it also checks that the text reads back as the same double.
func TestAppendNumberMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300000
	if testing.Short() {
		n = 10000
	}
	check := func(f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
			return
		}
		got := appendNumber(nil, f)
		want, err := json.Marshal(f)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "bits %#x", math.Float64bits(f))
		back, err := strconv.ParseFloat(string(got), 64)
		require.NoError(t, err)
		require.Equal(t, math.Float64bits(f), math.Float64bits(back))
	}
	for range n {
		check(math.Float64frombits(r.Uint64()))
		check(float64(r.IntN(2000000)-1000000) * math.Pow(10, float64(r.IntN(60)-30)))
	}
	for e := -330; e <= 310; e++ {
		for _, m := range []float64{1, 1.5, 9.999999999999999, 5, 2.5} {
			check(m * math.Pow(10, float64(e)))
		}
	}
}

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
			want: `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
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
		{"overflow", "1e400"},
		{"negative overflow", "-1e309"},
		{"overflow in array", "[1,1.8e308]"},
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
