package idempotency

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzCanonicalize checks that Canonicalize never panics and that, when it
// succeeds, its output is valid JSON, is its own canonical form, and decodes
// (with encoding/json, numbers as float64) to the same value as the input:
// numbers keep their double value, strings their text, objects their members.
func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		`{"b":[1,2.50,-0,1e21,1e-7],"a":{"d":"\u00e9\n","c":null}}`,
		`"\ud83d\ude00\u2028\u0000"`, `{"\ue000":1,"😀":2}`, `1e400`, `[1,]`,
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
		var vin, vout any
		if err := json.Unmarshal(in, &vin); err != nil {
			t.Fatalf("encoding/json rejects accepted input %q: %v", in, err)
		}
		if err := json.Unmarshal(out, &vout); err != nil {
			t.Fatalf("encoding/json rejects output %q: %v", out, err)
		}
		if !reflect.DeepEqual(vin, vout) {
			t.Fatalf("value changed: %q (%#v) became %q (%#v)", in, vin, out, vout)
		}
	})
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
