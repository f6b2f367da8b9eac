package argcheck

import (
	"strings"
	"testing"

	"github.com/toolerr/toolerr"
)

// FuzzCheckJSON feeds arbitrary arguments to a schema that uses most
// keywords. Whatever comes in, Check returns nil or a VALIDATION_FAILED
// whose rendering keeps the contract, whose fields are JSON pointers, and
// whose example_request, when given, validates.
func FuzzCheckJSON(f *testing.F) {
	for _, seed := range []string{
		`{"customer_id":"c","limit":500}`,
		`{"limt":5,"status":"Shipped","since":"2026/03/14","query":"blue suede shoes"}`,
		`{"customer_id":"c","at":"Mon, 02 Jan 2006 15:04:05 MST","since":"25/12/2026"}`,
		`{"customerId":"c","page_size":-7.5,"ratio":1e400,"tags":["a","a",{"x":1}]}`,
		`{"customer_id":"","currency":" usd ","address":{"postcode":"1234"},"kind":null}`,
		`{"customer_id":"c","express":"TRUE","limit":"25","a/b":1,"~0":2}`,
		`[]`, `"x"`, `{`, ``, `{"customer_id":"c","limit":9007199254740993}`,
	} {
		f.Add([]byte(seed))
	}
	s, err := Compile([]byte(ordersSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 4096 {
			return
		}
		err := s.CheckJSON(raw)
		if err == nil {
			return
		}
		e, ok := toolerr.From(err)
		if !ok || e.Code != toolerr.CodeValidationFailed {
			t.Fatalf("not VALIDATION_FAILED: %v", err)
		}
		if verr := toolerr.Validate(e.WithRequestID("req_1").AppendJSON(nil)); verr != nil {
			t.Fatalf("rendering breaks the contract: %v", verr)
		}
		if len(e.Violations) == 0 || e.Field != e.Violations[0].Field {
			t.Fatalf("field %q is not the first violation's: %+v", e.Field, e.Violations)
		}
		for _, v := range e.Violations {
			if v.Field != "" && !strings.HasPrefix(v.Field, "/") {
				t.Fatalf("field %q is not a JSON pointer", v.Field)
			}
		}
		if e.ExampleRequest != nil {
			if err := s.Check(e.ExampleRequest); err != nil {
				t.Fatalf("example_request does not validate: %v", err)
			}
		}
	})
}
