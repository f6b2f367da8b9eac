package translate

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidJSON(t *testing.T) {
	for _, s := range []string{
		``, ` `, `1`, `-0`, `-`, `01`, `1.`, `1.5e`, `1.5E+3`, `1e-3 `, `.5`, `tru`, `true`, `nul`, `null x`,
		`"a`, `"\u12G4"`, `"\u1234"`, `"\x"`, "\"\x01\"", "\"\xff\"", `"\/"`, `{}`, `{ }`, `{"a"}`, `{"a":}`,
		`{"a":1,}`, `{"a":1 "b":2}`, `[1,]`, `[,1]`, `[]`, `[ ]`, `[[[]]]`, `[[]`, `{"a":[{"b":{}}]}`, `{1:2}`,
		`[1]]`, `{"a":1}}`, strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "\t{\"a\" : [ true , false , null ] }\r\n",
	} {
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.40q) = %v, json.Valid says %v", s, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\u00e9\n",true,null,{}]}`, `[`, `"\ud800"`, `01`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}
