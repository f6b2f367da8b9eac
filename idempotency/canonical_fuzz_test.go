package idempotency

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzCanonicalize checks that Canonicalize never panics and that, when it
// succeeds, its output is valid JSON, is its own canonical form, and decodes
// to the same value as the input: numbers keep their exact decimal value
// (compared with math/big where the exponent allows), strings their text,
// objects their members.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		`{"b":[1,2.50,-0,1e21,1e-7],"a":{"d":"\u00e9\n","c":null}}`,
		`"\ud83d\ude00\u2028\u0000"`, `{"\ue000":1,"😀":2}`, `1e400`, `[1,]`,
		`{"to_account":1152921504606846977}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Canonicalize(in)
		if err != nil {
			if out != nil {
				t.Fatalf("output %q with error %v", out, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON output %q for %q", out, in)
		}
		again, err := Canonicalize(out)
		if err != nil {
			t.Fatalf("canonical form %q rejected: %v", out, err)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
		vin, err := decodeNumbers(in)
		if err != nil {
			t.Fatalf("encoding/json rejects accepted input %q: %v", in, err)
		}
		vout, err := decodeNumbers(out)
		if err != nil {
			t.Fatalf("encoding/json rejects output %q: %v", out, err)
		}
		if !sameJSON(vin, vout) {
			t.Fatalf("value changed: %q (%#v) became %q (%#v)", in, vin, out, vout)
		}
	})
}

// decodeNumbers decodes JSON text keeping numbers as their text.
func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// sameJSON reports whether two decoded values are equal, numbers compared
// by exact decimal value (assumed equal when too costly to compute).
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okA := ratOf(string(a))
		y, okB := ratOf(string(b))
		return !okA || !okB || x.Cmp(y) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(a, b)
	}
}

// FuzzCanonicalNumber checks the number rule on pairs of texts: a number's
// canonical text has its exact value and is its own canonical form; two
// numbers share a canonical text exactly when they are equal as decimals
// (compared with math/big); another spelling of a's value (its digits moved
// behind the decimal point, a zero appended, the exponent adjusted) gives
// the same text; and the shortest round-trip text of a double gives
// RFC 8785's text (encoding/json's).
func FuzzCanonicalNumber(f *testing.F) {
	f.Add("1152921504606846977", "1152921504606846976")
	f.Add("1", "1.0")
	f.Add("1e0", "10e-1")
	f.Add("-0", "0")
	f.Fuzz(func(t *testing.T, a, b string) {
		outA, okA := canonicalNumber(t, a)
		outB, okB := canonicalNumber(t, b)
		if !okA || !okB {
			return
		}
		x, okX := ratOf(a)
		y, okY := ratOf(b)
		if okX && okY && (x.Cmp(y) == 0) != (outA == outB) {
			t.Fatalf("%s → %s and %s → %s, values equal: %v", a, outA, b, outB, x.Cmp(y) == 0)
		}
		if alt, ok := respell(a); ok {
			if outAlt, ok := canonicalNumber(t, alt); !ok || outAlt != outA {
				t.Fatalf("%s → %s but its respelling %s → %s", a, outA, alt, outAlt)
			}
		}
		if f, err := strconv.ParseFloat(a, 64); err == nil && f != 0 && okX {
			shortest, _ := ratOf(strconv.FormatFloat(f, 'g', -1, 64))
			if want, _ := json.Marshal(f); x.Cmp(shortest) == 0 && outA != string(want) {
				t.Fatalf("%s is the shortest text of a double: want RFC 8785's %s, got %s", a, want, outA)
			}
		}
	})
}

// canonicalNumber canonicalizes s when it is a bare JSON number and
// checks its output: valid, canonical, of the same value. ok is false when
// s is not a number Canonicalize accepts.
func canonicalNumber(t *testing.T, s string) (string, bool) {
	t.Helper()
	if s == "" || strings.Trim(s, "-+.0123456789eE") != "" {
		return "", false // not a bare number (whitespace, other values)
	}
	out, err := Canonicalize([]byte(s))
	if err != nil {
		return "", false
	}
	if again, err := Canonicalize(out); err != nil || !bytes.Equal(again, out) {
		t.Fatalf("%s → %s, not canonical: %s, %v", s, out, again, err)
	}
	if v, err := decodeNumbers(out); err != nil {
		t.Fatalf("%s → invalid %s", s, out)
	} else if _, isNum := v.(json.Number); !isNum {
		t.Fatalf("%s → %s, not a number", s, out)
	}
	// ratOf declines exponents past ±2000, which the canonical text may
	// reach from an input inside them (10e2000 is 1e+2001): compare only
	// when both values are computed.
	if x, ok := ratOf(s); ok {
		if y, ok := ratOf(string(out)); ok && x.Cmp(y) != 0 {
			t.Fatalf("%s → %s: another value", s, out)
		}
	}
	return string(out), true
}

// respell returns another spelling of the value of the JSON number s: with
// all its digits after the decimal point, a zero appended, and the exponent
// adjusted. ok is false when s has no small exponent.
func respell(s string) (string, bool) {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 1e6 || e < -1e6 {
			return "", false
		}
		mant, exp = s[:i], e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	return sign + "0." + intPart + frac + "0e" + strconv.Itoa(exp+len(intPart)), true
}

// FuzzKey checks that Key never panics, that it fails exactly when an
// argument is empty or Canonicalize fails, and that arguments that
// canonicalize alike give the same key.
func FuzzKey(f *testing.F) {
	f.Add("sess", "tool", []byte(`{"a":1,"b":[1.0]}`), []byte(`{"b":[1],"a":1.0}`))
	f.Add("a", "bc", []byte(`null`), []byte(` null `))
	f.Add("", "t", []byte(`{}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, session, tool string, a, b []byte) {
		ka, errA := Key(session, tool, a)
		kb, errB := Key(session, tool, b)
		ca, errCA := Canonicalize(a)
		cb, errCB := Canonicalize(b)
		empty := session == "" || tool == ""
		if (errA != nil) != (empty || errCA != nil) || (errB != nil) != (empty || errCB != nil) {
			t.Fatalf("Key errors %v, %v disagree with Canonicalize errors %v, %v", errA, errB, errCA, errCB)
		}
		if errA != nil || errB != nil {
			return
		}
		if len(ka) != 64 {
			t.Fatalf("key %q is not 64 hex characters", ka)
		}
		if bytes.Equal(ca, cb) != (ka == kb) {
			t.Fatalf("canonical forms %q, %q but keys %s, %s", ca, cb, ka, kb)
		}
		if kc, err := Key(session, tool, ca); err != nil || kc != ka {
			t.Fatalf("key of the canonical form %q differs: %s, %v", ca, kc, err)
		}
	})
}
