package middleware

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolerr/toolerr"
)

// details returns the details of FuzzSanitizeError: v under the fuzzed key
// k, and a number under "n", which k never replaces (seed
// 81524900730a52a9 had k "n").
func details(k string, v any) map[string]any {
	d := map[string]any{k: v}
	d["n"] = json.Number("1152921504606846977")
	return d
}

// FuzzSanitizeError: whatever text a handler puts into any member of an
// error, at any depth, the sanitized error renders contract-valid, holds
// none of the planted secrets, keeps its numbers, and sanitizing it again
// changes nothing.
func FuzzSanitizeError(f *testing.F) {
	f.Add("amount too large", "/amount", "ord_123", "retry later")
	f.Add("<html><title>502</title></html>", "field\x00", "\xff\xfe s\x00k\x00", "Traceback (most recent call last):\n  File \"x.py\", line 1")
	f.Add("", "", "", "")
	f.Add("key sk_live_", "10.0.0.", "db.internal", "\u200b")
	m := newHandler([]Option{WithLogger(quiet)})
	planted := []string{leakStripe, leakGitHub}
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		mix := func(i int, s string) string { return s + " " + planted[i%len(planted)] + " " + s }
		e := toolerr.Default().New(toolerr.CodeValidationFailed, mix(0, a)).
			WithField(mix(1, b)).WithHint(mix(0, c)).WithHumanHint(mix(1, d)).
			WithAllowedValues([]any{mix(0, a), map[string]any{mix(1, b): mix(0, c)}}).
			WithSuggestedValue(mix(1, d)).
			WithDetails(details(a, []any{mix(0, b), 7.5, true})).
			WithExampleRequest(map[string]any{"x": mix(1, c)}).
			WithIntent(toolerr.Intent{Operation: mix(0, a), Recovery: mix(1, d)}).
			WithTool(mix(0, b)).
			WithUpstream(toolerr.Upstream{Vendor: a, Code: mix(1, c), RequestID: mix(0, d)}).
			WithItems(toolerr.ItemError{Index: 0, Err: toolerr.Default().New(toolerr.CodeNotFound, mix(1, a))}).
			WithRequestID("req-1")
		clean := m.sanitized(e)
		body := clean.AppendJSON(nil)
		if err := toolerr.Validate(body); err != nil {
			t.Fatalf("invalid rendering: %v\n%s", err, body)
		}
		for _, p := range planted {
			if strings.Contains(string(body), p[8:24]) {
				t.Fatalf("a planted secret survived:\n%s", body)
			}
		}
		if n := clean.Details["n"]; n != json.Number("1152921504606846977") {
			t.Fatalf("a number changed: %v", n)
		}
		if again := m.sanitized(clean); string(again.AppendJSON(nil)) != string(body) {
			t.Fatalf("sanitizing twice changed the error:\n%s\n%s", body, again.AppendJSON(nil))
		}
	})
}
