package idempotency

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCanonicalizeNumbersRFC8785 checks the number serialization samples of
// RFC 8785 Appendix B (IEEE-754 bit patterns and their expected text; NaN
// and Infinity have no JSON text and are rejected elsewhere). Each double
// is spelled as Go's shortest round-trip text in 'g', 'e' and 'f' form and
// as the expected text itself: every spelling of the shortest decimal of a
// double canonicalizes as RFC 8785 prints it.
func TestCanonicalizeNumbersRFC8785(t *testing.T) {
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
			for _, in := range []string{
				strconv.FormatFloat(f, 'g', -1, 64),
				strconv.FormatFloat(f, 'e', -1, 64),
				strconv.FormatFloat(f, 'f', -1, 64),
				tt.want,
			} {
				got, err := Canonicalize([]byte(in))
				require.NoError(t, err, in)
				assert.Equal(t, tt.want, string(got), "from %s", in)
			}
		})
	}
}

// TestCanonicalizeNumbers checks numbers as written in JSON text, with the
// cases where RFC 8785 would round and Canonicalize keeps the exact value.
func TestCanonicalizeNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"-0.0", "0"}, {"0e10", "0"}, {"-0E-5", "0"},
		{"0e1000000000000000000000", "0"}, {"-0.000e-99999999999999999999999", "0"},
		{"1", "1"}, {"1.0", "1"}, {"1.000000", "1"}, {"-1", "-1"}, {"100", "100"},
		{"1e0", "1"}, {"10e-1", "1"}, {"0.1e1", "1"}, {"100e-2", "1"}, {"0.0001e4", "1"},
		{"1e2", "100"}, {"1E+2", "100"}, {"10.5", "10.5"}, {"4.50", "4.5"}, {"12.340e1", "123.4"},
		{"2e-3", "0.002"}, {"0.1", "0.1"}, {"-0.5", "-0.5"}, {"123.456", "123.456"},
		{"1e21", "1e+21"}, {"1e20", "100000000000000000000"}, {"1.5e20", "150000000000000000000"},
		{"1e-7", "1e-7"}, {"1e-6", "0.000001"}, {"0.000001", "0.000001"},
		{"0.0000001", "1e-7"}, {"1.5e-7", "1.5e-7"}, {"0.00000123", "0.00000123"},
		{"1.5e300", "1.5e+300"}, {"-1.5e300", "-1.5e+300"}, {"1E30", "1e+30"},
		{"0.000000000000000000000000001", "1e-27"}, {"123e-20", "1.23e-18"},
		// Leading zeros and signs in exponents.
		{"1e007", "10000000"}, {"1E+0021", "1e+21"}, {"1e-0000006", "0.000001"}, {"5e-00", "5"},
		// Integers past 2^53: RFC 8785 would round all of these.
		{"9007199254740993", "9007199254740993"},
		{"1152921504606846976", "1152921504606846976"},
		{"1152921504606846977", "1152921504606846977"},
		{"1152921504606846975", "1152921504606846975"},
		{"-1152921504606846977", "-1152921504606846977"},
		{"18446744073709551615", "18446744073709551615"},
		{"18446744073709551617", "18446744073709551617"},
		{"12345678901234567890", "12345678901234567890"},
		{"123456789012345678901", "123456789012345678901"},
		{"1234567890123456789012", "1.234567890123456789012e+21"},
		{"1152921504606846977e3", "1.152921504606846977e+21"},
		// More significant digits than a double holds.
		{"333333333.33333329", "333333333.33333329"},
		{"0.10000000000000000001", "0.10000000000000000001"},
		{"0.1000000000000000055511151231257827", "0.1000000000000000055511151231257827"},
		{"3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"},
		{"1.7976931348623158e308", "1.7976931348623158e+308"},
		{"4.9e-324", "4.9e-324"},
		// Beyond the range of a double.
		{"1e400", "1e+400"}, {"-1e309", "-1e+309"}, {"1.8e308", "1.8e+308"},
		{"1e-400", "1e-400"}, {"-1e-400", "-1e-400"}, {"2.5e-330", "2.5e-330"},
		// The exponent bound, inclusive.
		{"1e999999999", "1e+999999999"}, {"-9.99e999999999", "-9.99e+999999999"},
		{"10e999999998", "1e+999999999"}, {"1e-999999999", "1e-999999999"},
		{"0.1e-999999998", "1e-999999999"},
		// Long digit strings.
		{"0." + strings.Repeat("0", 400) + "1e400", "0.1"},
		{"1" + strings.Repeat("0", 400) + "e-400", "1"},
		{"1" + strings.Repeat("0", 100000), "1e+100000"},
		{"0." + strings.Repeat("0", 100000) + "1", "1e-100001"},
		{"1." + strings.Repeat("0", 100000) + "1", "1." + strings.Repeat("0", 100000) + "1"},
		{"00000000000000000000000000000000000000000000000000000000001e1", ""},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:20] + "…" + strconv.Itoa(len(name))
		}
		t.Run(name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			if tt.want == "" {
				require.ErrorIs(t, err, ErrInvalidJSON)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			again, err := Canonicalize(got)
			require.NoError(t, err)
			assert.Equal(t, string(got), string(again), "not idempotent")
		})
	}
}

// TestCanonicalNumbersNeverMerge checks groups of spellings: the spellings
// of one decimal value share one canonical text, and no two groups do.
func TestCanonicalNumbersNeverMerge(t *testing.T) {
	groups := [][]string{
		{"1", "1.0", "1e0", "10e-1", "0.1e1", "100e-2", "1.000e+0", "1E0", "0.0001e4"},
		{"0", "-0", "0.0", "-0.0", "0e10", "0E-5", "-0e+99999999999999999999"},
		{"1152921504606846976", "1.152921504606846976e18", "1152921504606846976.000", "11529215046068469760e-1"},
		{"1152921504606846977", "11529215046068469770e-1", "1.152921504606846977E+18"},
		{"1152921504606846975"},
		{"9007199254740992", "9.007199254740992e15"},
		{"9007199254740993", "9007199254740993.0"},
		{"0.1", "1e-1", "0.10", "10e-2"},
		{"0.10000000000000000001"},
		{"0.1000000000000000055511151231257827"},
		{"0.30000000000000004"},
		{"0.3", "3e-1"},
		{"1e400", "10e399", "0.1e401"},
		{"1e-400", "0.01e-398"},
		{"5e-324", "0.5e-323"},
		{"4.9e-324"},
		{"1.7976931348623157e308"},
		{"1.7976931348623158e308"},
		{"-1", "-1.0", "-10e-1"},
		{"1e21", "1000000000000000000000"},
		{"1e-7", "0.0000001"},
	}
	owner := map[string]int{}
	for gi, g := range groups {
		for _, in := range g {
			out, err := Canonicalize([]byte(in))
			require.NoError(t, err, in)
			if prev, ok := owner[string(out)]; ok {
				require.Equal(t, prev, gi, "%s canonicalizes to %s, as group %v does", in, out, groups[prev])
			}
			owner[string(out)] = gi
		}
	}
	assert.Len(t, owner, len(groups), "one canonical text per group")
	// The break as reported: two accounts 2^60+1 and 2^60 were one.
	a, err := Canonicalize([]byte(`{"to_account":1152921504606846977}`))
	require.NoError(t, err)
	b, err := Canonicalize([]byte(`{"to_account":1152921504606846976}`))
	require.NoError(t, err)
	assert.NotEqual(t, string(a), string(b))
}

// TestCanonicalNumbersAgainstBigRat checks random number texts against an
// exact reference (math/big): the canonical text has the input's value, and
// two texts share a canonical text exactly when their values are equal.
// The texts are drawn from a small domain so that equal values with
// different spellings are frequent.
func TestCanonicalNumbersAgainstBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	byValue := map[string]string{} // exact value → canonical text
	byText := map[string]string{}  // canonical text → exact value
	for range n {
		in := randomNumberText(r)
		out, err := Canonicalize([]byte(in))
		require.NoError(t, err, in)
		want, ok := ratOf(in)
		require.True(t, ok, in)
		got, ok := ratOf(string(out))
		require.True(t, ok, string(out))
		require.Zero(t, want.Cmp(got), "%s canonicalized to %s: another value", in, out)
		v := want.RatString()
		if prev, ok := byValue[v]; ok {
			require.Equal(t, prev, string(out), "two canonical texts of %s (from %s)", v, in)
		}
		if prev, ok := byText[string(out)]; ok {
			require.Equal(t, prev, v, "%s is the canonical text of two values (from %s)", out, in)
		}
		byValue[v], byText[string(out)] = string(out), v
	}
}

// randomNumberText returns a random JSON number text: a sign, integer and
// fraction digits with frequent zeros, and an optional exponent with
// optional sign and leading zeros.
func randomNumberText(r *rand.Rand) string {
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("0012357"[r.IntN(7)])
		}
		return b.String()
	}
	var b strings.Builder
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	if intPart := digits(r.IntN(25)); intPart == "" || intPart[0] == '0' {
		b.WriteString("0")
	} else {
		b.WriteString(intPart)
	}
	if r.IntN(2) == 0 {
		b.WriteString("." + digits(1+r.IntN(25)))
	}
	if r.IntN(2) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-", "e00", "e-0"}[r.IntN(7)])
		b.WriteString(strconv.Itoa(r.IntN(40)))
	}
	return b.String()
}

// ratOf returns the exact value of a JSON number text, or false when its
// exponent or length makes the value too costly to compute in a test.
func ratOf(s string) (*big.Rat, bool) {
	if len(s) > 5000 {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 2000 || e < -2000 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

// TestCanonicalizeShortestMatchesEncodingJSON checks, on random doubles of
// every magnitude and on short decimals, that the shortest round-trip text
// of a double canonicalizes to what encoding/json writes for it, whose
// float64 encoding follows ECMAScript's number-to-string conversion (the
// RFC 8785 form).
func TestCanonicalizeShortestMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 10000
	}
	formats := []byte{'g', 'e', 'f'}
	check := func(f float64, i int) {
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
			return
		}
		in := strconv.FormatFloat(f, formats[i%len(formats)], -1, 64)
		got, err := Canonicalize([]byte(in))
		require.NoError(t, err, in)
		want, err := json.Marshal(f)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "from %s (bits %#x)", in, math.Float64bits(f))
	}
	for i := range n {
		check(math.Float64frombits(r.Uint64()), i)
		check(float64(r.IntN(2000000)-1000000)*math.Pow(10, float64(r.IntN(60)-30)), i)
	}
	for e := -330; e <= 310; e++ {
		for i, m := range []float64{1, 1.5, 9.999999999999999, 5, 2.5} {
			check(m*math.Pow(10, float64(e)), i+e+330)
		}
	}
}
