package toolerr

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzRenderAlwaysValid builds errors from arbitrary field values, including
// ones no registry would accept, and asserts the property the renderer
// promises: with a valid request id, whatever the error holds, the body
// passes Validate and parses back.
func FuzzRenderAlwaysValid(f *testing.F) {
	f.Add("VALIDATION_FAILED", "validation", "error", "bad amount", "amount", true, int64(0), 42, "https://docs.example.com/x", "use_fallback:search", "4bf92f3577b34da6a3ce929d0e0e4736", "retry_after")
	f.Add("RATE_LIMITED", "rate_limit", "fatal", "", "", true, int64(0), 700, "/docs/", "use_fallback:a\fb", "abc", "")
	f.Add("lower", "oops", "", "\x80\x80\x80\x80", "\xff", false, int64(1<<62), -1, "", "reboot", "00000000000000000000000000000000", "exponential_backoff")
	f.Add("", "", "", "é", "", true, int64(-5), 100, "http://", "refresh_auth", "", "x")
	f.Fuzz(func(t *testing.T, code, category, severity, detail, field string, retryable bool, retryAfter int64, upstreamStatus int, docs, action, traceID, strategy string) {
		e := &Error{
			Code: code, Category: Category(category), Severity: Severity(severity),
			Title: detail, Detail: detail + detail, Field: field, Hint: detail, HumanHint: field,
			Retryable: retryable, RetryAfter: time.Duration(retryAfter), DocsURL: docs, Type: docs,
			Actions: []string{action}, RelatedCodes: []string{code}, Suggestions: []string{detail},
			Instance: detail, Tool: field, TraceID: traceID, RequestID: "req-1",
			Upstream:    &Upstream{Vendor: field, Status: upstreamStatus, Code: detail, RequestID: field},
			RetryPolicy: &RetryPolicy{Strategy: RetryStrategy(strategy), BaseDelay: time.Duration(retryAfter), MaxAttempts: upstreamStatus},
			Intent:      &Intent{Operation: detail, State: field},
			Details:     map[string]any{detail: field},
			Violations: []Violation{{Field: field, Reason: detail, AllowedValues: []any{detail}, SuggestedValue: field},
				{Field: detail + "/x", Reason: field}},
			ExampleRequest: map[string]any{field: detail},
			Errors:         []ItemError{{Index: 0, Err: &Error{Code: code, Category: Category(category), Retryable: retryable, Detail: field}}},
		}
		body := e.AppendJSON(nil)
		if err := Validate(body); err != nil {
			t.Fatalf("rendering fails the contract: %v\n%s", err, body)
		}
		if err := Validate(e.AppendEnvelope(nil)); err != nil {
			t.Fatalf("envelope fails the contract: %v", err)
		}
		if _, err := Parse(body); err != nil {
			t.Fatalf("rendering does not parse: %v\n%s", err, body)
		}
		checkObservationLines(t, e)
	})
}

// checkObservationLines asserts the observation's shape whatever the error
// holds: valid UTF-8, a first line that is the code, then one line per
// member, each starting with a known member name, each name at most once.
func checkObservationLines(t *testing.T, e *Error) {
	t.Helper()
	for _, md := range []bool{false, true} {
		checkObservation(t, string(e.AppendObservation(nil, ObservationOptions{HumanHint: true, Markdown: md})), md)
	}
}

func checkObservation(t *testing.T, obs string, md bool) {
	t.Helper()
	if !utf8.ValidString(obs) {
		t.Fatalf("observation is not UTF-8: %q", obs)
	}
	lines := strings.Split(obs, "\n")
	if !ValidCode(strings.Trim(strings.SplitN(lines[0], " ", 2)[0], "*")) {
		t.Fatalf("first line does not start with a code: %q", lines[0])
	}
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		if md {
			var ok bool
			if l, ok = strings.CutPrefix(l, "- "); !ok {
				t.Fatalf("markdown line %q is not an item", l)
			}
		}
		name, _, ok := strings.Cut(l, ": ")
		known := map[string]bool{"retryable": true, "field": true, "allowed_values": true, "suggested_value": true,
			"violation": true, "example_request": true, "details": true, "actions": true,
			"hint": true, "human_hint": true, "intent": true, "request_id": true}
		if !ok || !known[name] || seen[name] {
			t.Fatalf("line %q is not one member line: %q", l, obs)
		}
		seen[name] = name != "violation" // one line per violation
	}
}

// FuzzParse feeds arbitrary bodies to Parse and Validate: neither may panic,
// and whatever Parse accepts re-renders to a body that passes Validate.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"urn:toolerr:NOT_FOUND","title":"t","status":404,"detail":"d","code":"NOT_FOUND","category":"not_found","severity":"error","retryable":false,"request_id":"r"}`))
	f.Add([]byte(`{"ok":false,"error":{"code":"RATE_LIMITED","category":"rate_limit","status":429,"retryable":true,"retry_after_ms":9223372036854775807}}`))
	f.Add([]byte(`{"code":"X","category":"validation","status":400,"errors":[{"index":-1},{"index":2,"code":"Y","category":"oops"}]}`))
	f.Add([]byte(`{"ok":true}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = Validate(body)
		e, err := Parse(body)
		if err != nil {
			return
		}
		out := e.WithRequestID("req-1").AppendJSON(nil)
		if err := Validate(out); err != nil {
			t.Fatalf("a parsed error re-renders outside the contract: %v\n%s", err, out)
		}
	})
}
