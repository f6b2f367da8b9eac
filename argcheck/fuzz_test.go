package argcheck

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

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

// FuzzPatternRewrite: whatever the value and the pattern, a rewrite
// matches the pattern, keeps every letter and digit of the value in
// order (only separators and case change), never has fewer separators
// than the value, and is the same on a second call; the search stays
// within its budget.
func FuzzPatternRewrite(f *testing.F) {
	for _, seed := range [][2]string{
		{"fr_CA", `^[a-z]{2}-[A-Z]{2}$`}, {"Order Date", `^[a-z][a-z0-9_]*$`}, {"INC 4521", `^[A-Z]+-[0-9]+$`},
		{"EMP00412", `^EMP-[0-9]{5}$`}, {"mary.jones", `^[a-z0-9-]+$`}, {"mail server", `^[a-z0-9]+([.-][a-z0-9]+)*$`},
		{"America/New York", `^[A-Za-z]+/[A-Za-z_]+$`}, {" usd ", `^[A-Z]{3}$`}, {"a-b_c.d/e f", `^[a-z]+(/[a-z]+)*$`},
		{"ÉTÉ 2026", `^[a-zé]+-[0-9]+$`}, {"x", `(`}, {"", `^$`},
	} {
		f.Add(seed[0], seed[1])
	}
	lettersAndDigits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(wordSeparators, r) || unicode.IsSpace(r) {
				return -1
			}
			return unicode.ToLower(r)
		}, s)
	}
	f.Fuzz(func(t *testing.T, value, pattern string) {
		re, err := regexp.Compile(pattern)
		if err != nil || len(value) > 256 {
			return
		}
		budget := maxCallRewrites
		out, ok := patternRewrite(value, re, false, &budget)
		if budget < 0 || budget > maxCallRewrites {
			t.Fatalf("budget %d out of bounds", budget)
		}
		if !ok {
			return
		}
		if !re.MatchString(out) {
			t.Fatalf("%q for %q does not match %s", out, value, pattern)
		}
		if lettersAndDigits(out) != lettersAndDigits(strings.TrimSpace(value)) {
			t.Fatalf("%q for %q changed more than separators and case", out, value)
		}
		in, _ := shapeOf(strings.TrimSpace(value))
		got, _ := shapeOf(out)
		if len(got.seps) < len(in.seps) {
			t.Fatalf("%q for %q dropped a separator", out, value)
		}
		again := maxCallRewrites
		if out2, ok2 := patternRewrite(value, re, false, &again); !ok2 || out2 != out {
			t.Fatalf("not deterministic: %q then %q", out, out2)
		}
	})
}
