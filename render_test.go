package toolerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// decodeRendered decodes a rendering into a map, numbers as json.Number.
func decodeRendered(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&m), "%s", body)
	return m
}

func TestRenderEveryDefaultCodeRoundTrip(t *testing.T) {
	defs := Default().Defs()
	require.Len(t, defs, 32)
	for _, d := range defs {
		t.Run(d.Code, func(t *testing.T) {
			e := Default().New(d.Code, "").WithRequestID("req-1")
			renderings := []struct {
				name   string
				render func(*Error) []byte
			}{
				{"problem", func(e *Error) []byte { return e.AppendJSON(nil) }},
				{"envelope", func(e *Error) []byte { return e.AppendEnvelope(nil) }},
			}
			for _, r := range renderings {
				body := r.render(e)
				require.NoError(t, Validate(body), "%s: %s", r.name, body)
				back, err := Parse(body)
				require.NoError(t, err, r.name)
				assert.Equal(t, string(body), string(r.render(back)), "%s round trip", r.name)
				assert.Equal(t, d.Code, back.Code)
				assert.Equal(t, d.Category, back.Category)
				assert.Equal(t, d.Severity, back.Severity)
				assert.Equal(t, d.Status, back.Status)
				assert.Equal(t, d.Retryable, back.Retryable)
				assert.Equal(t, "req-1", back.RequestID)
			}
			m := decodeRendered(t, e.AppendJSON(nil))
			assert.Equal(t, "urn:toolerr:"+d.Code, m["type"])
			assert.Equal(t, d.Title, m["title"])
			assert.Equal(t, d.Title, m["detail"], "empty detail renders the title")
			hint, humanHint, _ := e.RenderedHints()
			assert.Equal(t, hint, m["hint"])
			assert.Equal(t, humanHint, m["human_hint"])
			_, hasPolicy := m["retry_policy"]
			assert.Equal(t, d.Retryable, hasPolicy, "retry_policy only when retryable")

			env := decodeRendered(t, e.AppendEnvelope(nil))
			assert.Len(t, env, 2)
			assert.Equal(t, false, env["ok"])
			assert.Equal(t, m, env["error"], "the envelope wraps the same problem object")
		})
	}
}

// renderFullError is an error with every member populated.
func renderFullError() *Error {
	reg := NewRegistry(Default(), WithDocsBase("https://docs.example.com/errors/"))
	return reg.New(CodeRateLimited, "The search API allows 10 calls per second; this call was the 11th. Lower limit to <= 100 & retry.").
		WithCause(errors.New("secret-db-password-xyz")).
		WithRetryAfter(1500*time.Millisecond).
		WithField("limit").
		WithAllowedValues(Range{Minimum: 1, Maximum: 100}).
		WithSuggestedValue(100).
		WithSuggestions("Wait retry_after_ms.", "Call again with limit at most 100.").
		WithActions(ActionReadStateFirst, ActionUseFallbackPrefix+"search_cache").
		WithRelatedCodes(CodeQuotaExhausted).
		WithDetails(map[string]any{
			"window":       map[string]any{"size_ms": 1000, "limit": 10, "unit": "call"},
			"recent_calls": []any{"c-1", "c-2", 3, 4.5, true, nil},
			"tenant":       "acme é",
		}).
		WithExampleRequest(map[string]any{"query": "blue shoes", "limit": 100}).
		WithViolations(
			Violation{Field: "/limit", Reason: "must be at most 100", AllowedValues: Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100},
			Violation{Field: "/query", Reason: "is required"},
		).
		WithIntent(Intent{Operation: "search_orders", ResourceID: "q-42", State: "not started", Recovery: "call again after retry_after_ms"}).
		WithTool("search_orders").
		WithUpstream(Upstream{Vendor: "searchco", Status: 429, Code: "too_many_requests", RequestID: "sc_8fK2aa", Attempts: 3}).
		WithItems(
			ItemError{Index: 0, Err: Default().New(CodeValidationFailed, "limit must be at most 100.").
				WithField("limit").WithSuggestedValue(100).
				WithRequestID("item-req").WithTraceID("00000000000000000000000000000001").WithInstance("/item")},
			ItemError{Index: 3, Err: Default().New(CodeNotFound, "order ord-9 does not exist.")},
		).
		WithInstance("/tools/search_orders").
		WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736").
		WithRequestID("req-1")
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run %s -update to create it", t.Name())
	assert.Equal(t, string(want), string(got), "%s differs; rerun with -update if the change is intended", path)
}

func TestRenderFullGolden(t *testing.T) {
	e := renderFullError()
	problem := e.AppendJSON(nil)
	envelope := e.AppendEnvelope(nil)
	checkGolden(t, "full_problem.json", problem)
	checkGolden(t, "full_envelope.json", envelope)

	require.NoError(t, Validate(problem), "%s", problem)
	require.NoError(t, Validate(envelope), "%s", envelope)
	assert.Equal(t, `{"ok":false,"error":`+string(problem)+`}`, string(envelope))

	m := decodeRendered(t, problem)
	for _, member := range []string{"type", "title", "status", "detail", "instance", "code", "category", "severity",
		"retryable", "retry_after_ms", "field", "allowed_values", "suggested_value", "hint", "human_hint",
		"suggestions", "actions", "docs_url", "related_codes", "details", "example_request", "retry_policy",
		"intent", "tool", "upstream", "errors", "trace_id", "request_id"} {
		assert.Contains(t, m, member)
	}
	assert.Equal(t, "https://docs.example.com/errors/RATE_LIMITED", m["type"])
	assert.Equal(t, "https://docs.example.com/errors/RATE_LIMITED", m["docs_url"])
	assert.Equal(t, json.Number("1500"), m["retry_after_ms"])
	assert.Equal(t, map[string]any{"minimum": json.Number("1"), "maximum": json.Number("100")}, m["allowed_values"])
	assert.Equal(t, json.Number("100"), m["suggested_value"])
	assert.Equal(t, map[string]any{"strategy": "retry_after", "base_ms": json.Number("1000"),
		"max_attempts": json.Number("3"), "idempotency_required": false}, m["retry_policy"])
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", m["trace_id"])
	assert.Equal(t, "req-1", m["request_id"])

	items, ok := m["errors"].([]any)
	require.True(t, ok)
	require.Len(t, items, 2)
	for i, wantIndex := range []string{"0", "3"} {
		item := items[i].(map[string]any)
		assert.Equal(t, json.Number(wantIndex), item["index"])
		for _, scoped := range []string{"request_id", "trace_id", "instance", "errors"} {
			assert.NotContains(t, item, scoped, "items leave out request-scoped members")
		}
	}
	assert.True(t, bytes.HasPrefix(problem[bytes.Index(problem, []byte(`"errors":[`))+len(`"errors":[`):], []byte(`{"index":0,"type":`)), "index comes first")

	// The golden bytes parse back to the same error, field by field.
	back, err := Parse(problem)
	require.NoError(t, err)
	assert.Equal(t, e.Field, back.Field)
	assert.Equal(t, e.Tool, back.Tool)
	assert.Equal(t, *e.Intent, *back.Intent)
	assert.Equal(t, *e.Upstream, *back.Upstream)
	assert.Equal(t, *e.RetryPolicy, *back.RetryPolicy)
	assert.Equal(t, e.RetryAfter, back.RetryAfter)
	assert.Equal(t, e.Suggestions, back.Suggestions)
	assert.Equal(t, e.Actions, back.Actions)
	require.Len(t, back.Errors, 2)
	assert.Equal(t, 3, back.Errors[1].Index)
	assert.Equal(t, CodeNotFound, back.Errors[1].Err.Code)
}

func TestRenderNeverWritesCause(t *testing.T) {
	secret := errors.New("secret-db-password-xyz")
	for _, e := range []*Error{
		renderFullError(),
		Default().New(CodeInternal, "").WithCause(secret).WithRequestID("req-1"),
		Default().New(CodeInternal, "").WithCause(fmt.Errorf("wrapped: %w", secret)).WithRequestID("req-1"),
		Default().New("NO_SUCH_CODE", "").WithCause(secret).WithRequestID("req-1"),
		(&Error{}).WithCause(secret).WithItems(ItemError{Index: 0, Err: Default().New(CodeNotFound, "").WithCause(secret)}),
	} {
		mj, err := e.MarshalJSON()
		require.NoError(t, err)
		viaJSON, err := json.Marshal(e)
		require.NoError(t, err)
		for _, body := range [][]byte{e.AppendJSON(nil), e.AppendEnvelope(nil), mj, viaJSON} {
			assert.NotContains(t, string(body), "secret-db-password-xyz")
		}
	}
}

func TestMarshalJSONEqualsAppendJSON(t *testing.T) {
	for _, e := range []*Error{renderFullError(), Default().New(CodeNotFound, "x").WithRequestID("r"), {}} {
		got, err := e.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(e.AppendJSON(nil)), string(got))
		viaJSON, err := json.Marshal(e)
		require.NoError(t, err)
		assert.Equal(t, string(got), string(viaJSON), "encoding/json keeps the bytes as they are")
	}
	// AppendJSON appends.
	assert.Equal(t, "prefix"+string(renderFullError().AppendJSON(nil)), string(renderFullError().AppendJSON([]byte("prefix"))))
}

func TestRenderDetailCutAtRuneBoundary(t *testing.T) {
	// "a" then 2-byte runes: 1+2k bytes, so MaxDetailLen (even) lands mid-rune.
	detail := "a" + strings.Repeat("é", 2500)
	require.Len(t, detail, 5001)
	e := Default().New(CodeValidationFailed, detail).WithRequestID("req-1")
	body := e.AppendJSON(nil)
	require.NoError(t, Validate(body))
	got := decodeRendered(t, body)["detail"].(string)
	assert.True(t, utf8.ValidString(got))
	assert.LessOrEqual(t, len(got), MaxDetailLen)
	assert.Len(t, got, MaxDetailLen-1, "the longest rune-aligned prefix")
	assert.Equal(t, detail[:MaxDetailLen-1], got)
	assert.NotContains(t, got, "\ufffd")
}

func TestRenderTextLimits(t *testing.T) {
	long := strings.Repeat("x", 10000)
	e := (&Error{Code: CodeInternal, RequestID: "req-1"}).
		WithHint(long).WithHumanHint(long).WithField(long).WithTool(long).WithInstance(long).
		WithSuggestions(long).
		WithIntent(Intent{Operation: long, ResourceID: long, State: long, Recovery: long}).
		WithUpstream(Upstream{Vendor: long, Code: long, RequestID: long})
	e.Title, e.Type = long, long
	body := e.AppendJSON(nil)
	require.NoError(t, Validate(body), "%.300s", body)
	m := decodeRendered(t, body)
	lens := map[string]int{"title": MaxTitleLen, "type": MaxURILen, "hint": MaxHintLen, "human_hint": MaxHintLen,
		"field": MaxFieldLen, "tool": MaxNameLen, "instance": MaxURILen}
	for name, n := range lens {
		assert.Len(t, m[name], n, name)
	}
	assert.Len(t, m["suggestions"].([]any)[0], MaxListItemLen)
	assert.Len(t, m["intent"].(map[string]any)["recovery"], MaxIntentFieldLen)
	assert.NotContains(t, m["upstream"], "request_id", "an over-long id is dropped: a cut id names another request")
}

func TestRenderListLimitsAndFilters(t *testing.T) {
	steps := make([]string, MaxListLen+5)
	for i := range steps {
		steps[i] = "step " + string(rune('a'+i))
	}
	e := Default().New(CodeNotFound, "").WithRequestID("req-1").
		WithSuggestions(steps...).
		WithActions("reboot", ActionRefreshAuth, "", "use_fallback:", "use_fallback:a b", ActionUseFallbackPrefix+"search", "REFRESH_AUTH").
		WithRelatedCodes("not_found", CodeGone, "A__B", "", CodeConflict)
	body := e.AppendJSON(nil)
	require.NoError(t, Validate(body))
	m := decodeRendered(t, body)
	sug := m["suggestions"].([]any)
	require.Len(t, sug, MaxListLen)
	assert.Equal(t, "step a", sug[0])
	assert.Equal(t, steps[MaxListLen-1], sug[MaxListLen-1])
	assert.Equal(t, []any{ActionRefreshAuth, "use_fallback:search"}, m["actions"])
	assert.Equal(t, []any{CodeGone, CodeConflict}, m["related_codes"])

	none := Default().New(CodeNotFound, "").WithRequestID("req-1").WithActions("reboot").WithRelatedCodes("bad").WithSuggestions("")
	m = decodeRendered(t, none.AppendJSON(nil))
	assert.NotContains(t, m, "actions", "a list with no valid entry is left out")
	assert.NotContains(t, m, "related_codes")
	assert.NotContains(t, m, "suggestions")
}

func TestRenderDropsUnencodableValues(t *testing.T) {
	tests := []struct {
		name   string
		e      *Error
		member string
	}{
		{"details with a channel", Default().New(CodeNotFound, "").WithDetails(map[string]any{"ok": 1, "c": make(chan int)}), "details"},
		{"details with NaN", Default().New(CodeNotFound, "").WithDetails(map[string]any{"n": math.NaN()}), "details"},
		{"details with +Inf deep", Default().New(CodeNotFound, "").WithDetails(map[string]any{"a": []any{map[string]any{"x": math.Inf(1)}}}), "details"},
		{"details over MaxObjectLen", Default().New(CodeNotFound, "").WithDetails(map[string]any{"big": strings.Repeat("x", MaxObjectLen)}), "details"},
		{"allowed_values NaN", Default().New(CodeNotFound, "").WithAllowedValues(Range{Minimum: math.NaN()}), "allowed_values"},
		{"allowed_values over MaxValueLen", Default().New(CodeNotFound, "").WithAllowedValues(strings.Repeat("v", MaxValueLen)), "allowed_values"},
		{"suggested_value func", Default().New(CodeNotFound, "").WithSuggestedValue(func() {}), "suggested_value"},
		{"suggested_value Inf", Default().New(CodeNotFound, "").WithSuggestedValue(math.Inf(-1)), "suggested_value"},
		{"example_request channel", Default().New(CodeNotFound, "").WithExampleRequest(make(chan int)), "example_request"},
		{"example_request over MaxObjectLen", Default().New(CodeNotFound, "").WithExampleRequest(map[string]any{"q": strings.Repeat("q", MaxObjectLen)}), "example_request"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.e.WithRequestID("req-1").WithField("f")
			body := e.AppendJSON(nil)
			require.NoError(t, Validate(body), "%.300s", body)
			m := decodeRendered(t, body)
			assert.NotContains(t, m, tc.member)
			assert.Equal(t, "f", m["field"], "the members after it are still written")
			assert.Equal(t, "req-1", m["request_id"])
		})
	}
	// Just under the limit is kept.
	fits := Default().New(CodeNotFound, "").WithRequestID("req-1").
		WithDetails(map[string]any{"big": strings.Repeat("x", MaxObjectLen-len(`{"big":""}`))})
	m := decodeRendered(t, fits.AppendJSON(nil))
	assert.Contains(t, m, "details")
}

func TestRenderItemLimits(t *testing.T) {
	items := make([]ItemError, 0, MaxItems+20)
	items = append(items, ItemError{Index: 0, Err: nil}, ItemError{Index: -1, Err: Default().New(CodeNotFound, "")})
	for i := range MaxItems + 20 {
		items = append(items, ItemError{Index: i, Err: Default().New(CodeNotFound, "")})
	}
	e := Default().New(CodePartialFailure, "").WithRequestID("req-1").WithItems(items...)
	body := e.AppendJSON(nil)
	require.NoError(t, Validate(body))
	got := decodeRendered(t, body)["errors"].([]any)
	require.Len(t, got, MaxItems)
	assert.Equal(t, json.Number("0"), got[0].(map[string]any)["index"], "nil and negative items are skipped")
	assert.Equal(t, json.Number("99"), got[MaxItems-1].(map[string]any)["index"])
}

func TestRenderZeroValue(t *testing.T) {
	e := &Error{RequestID: "req-1"}
	body := e.AppendJSON(nil)
	require.NoError(t, Validate(body))
	assert.Equal(t, `{"type":"urn:toolerr:INTERNAL_ERROR","title":"INTERNAL_ERROR","status":500,"detail":"INTERNAL_ERROR",`+
		`"code":"INTERNAL_ERROR","category":"internal","severity":"error","retryable":false,"request_id":"req-1"}`, string(body))
	require.NoError(t, Validate(e.AppendEnvelope(nil)))

	// Invalid values fall back to the contract defaults too.
	bad := &Error{Code: "lower", Category: "oops", Severity: "loud", Status: 200, RequestID: "req-1", Retryable: true}
	m := decodeRendered(t, bad.AppendJSON(nil))
	require.NoError(t, Validate(bad.AppendJSON(nil)))
	assert.Equal(t, "INTERNAL_ERROR", m["code"])
	assert.Equal(t, "internal", m["category"])
	assert.Equal(t, "error", m["severity"])
	assert.Equal(t, json.Number("500"), m["status"])
	assert.Equal(t, true, m["retryable"], "internal may be retried")
}

func TestRenderIDs(t *testing.T) {
	e := Default().New(CodeNotFound, "")
	tests := []struct {
		name             string
		requestID        string
		traceID          string
		wantReq, wantTrc bool
	}{
		{"both valid", "req-1", "4bf92f3577b34da6a3ce929d0e0e4736", true, true},
		{"zero trace", "req-1", "00000000000000000000000000000000", true, false},
		{"upper-case trace", "req-1", "4BF92F3577B34DA6A3CE929D0E0E4736", true, false},
		{"bad request id", "bad id\r\n", "", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := e.WithRequestID(tc.requestID).WithTraceID(tc.traceID).AppendJSON(nil)
			m := decodeRendered(t, body)
			_, hasReq := m["request_id"]
			_, hasTrc := m["trace_id"]
			assert.Equal(t, tc.wantReq, hasReq)
			assert.Equal(t, tc.wantTrc, hasTrc)
			assert.NotContains(t, string(body), "bad id")
		})
	}
}
