package toolerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const parseProblem = `{"type":"urn:toolerr:VALIDATION_FAILED","title":"The request is invalid","status":400,` +
	`"detail":"limit must be at most 100","instance":"/tools/search","code":"VALIDATION_FAILED","category":"validation",` +
	`"severity":"error","retryable":false,"field":"limit","allowed_values":{"minimum":1,"maximum":100},"suggested_value":100,` +
	`"hint":"h","human_hint":"hh","suggestions":["s1","s2"],"actions":["read_state_first"],"docs_url":"https://d.example.com/V",` +
	`"related_codes":["NOT_FOUND"],"details":{"n":1.5,"s":"x"},"example_request":{"limit":100},` +
	`"violations":[{"field":"/limit","reason":"must be at most 100","allowed_values":{"minimum":1,"maximum":100},"suggested_value":100}],` +
	`"intent":{"operation":"op","resource_id":"r","state":"s","recovery":"rc"},"tool":"search",` +
	`"upstream":{"vendor":"v","status":503,"code":"c","request_id":"ur"},` +
	`"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","request_id":"req-1"}`

func TestParseProblem(t *testing.T) {
	e, err := Parse([]byte(parseProblem))
	require.NoError(t, err)
	want := &Error{
		Type: "urn:toolerr:VALIDATION_FAILED", Title: "The request is invalid", Status: 400,
		Detail: "limit must be at most 100", Instance: "/tools/search", Code: CodeValidationFailed,
		Category: CategoryValidation, Severity: SeverityError, Field: "limit",
		AllowedValues:  map[string]any{"minimum": json.Number("1"), "maximum": json.Number("100")},
		SuggestedValue: json.Number("100"),
		Hint:           "h", HumanHint: "hh", Suggestions: []string{"s1", "s2"}, Actions: []string{ActionReadStateFirst},
		DocsURL: "https://d.example.com/V", RelatedCodes: []string{CodeNotFound},
		Details:        map[string]any{"n": json.Number("1.5"), "s": "x"},
		ExampleRequest: map[string]any{"limit": json.Number("100")},
		Violations: []Violation{{Field: "/limit", Reason: "must be at most 100",
			AllowedValues:  map[string]any{"minimum": json.Number("1"), "maximum": json.Number("100")},
			SuggestedValue: json.Number("100")}},
		Intent:   &Intent{Operation: "op", ResourceID: "r", State: "s", Recovery: "rc"},
		Tool:     "search",
		Upstream: &Upstream{Vendor: "v", Status: 503, Code: "c", RequestID: "ur"},
		TraceID:  "4bf92f3577b34da6a3ce929d0e0e4736", RequestID: "req-1",
	}
	assert.Equal(t, want, e)
	assert.Nil(t, e.Unwrap(), "a parsed error has no Go cause")
}

func TestParseEnvelope(t *testing.T) {
	e, err := Parse([]byte(`{"ok":false,"error":` + parseProblem + `}`))
	require.NoError(t, err)
	direct, err := Parse([]byte(parseProblem))
	require.NoError(t, err)
	assert.Equal(t, direct, e)

	// Member order does not matter.
	e, err = Parse([]byte(`{"error":` + parseProblem + `,"ok":false}`))
	require.NoError(t, err)
	assert.Equal(t, direct, e)
}

func TestParseRejects(t *testing.T) {
	minimal := `"code":"NOT_FOUND","category":"not_found","status":404`
	tests := []struct {
		name       string
		body       string
		notAnError bool   // errors.Is(err, ErrNotAnError)
		want       string // substring of the error otherwise
	}{
		{"envelope ok true", `{"ok":true,"error":{` + minimal + `}}`, true, ""},
		{"envelope ok true, no error", `{"ok":true,"data":{}}`, true, ""},
		{"envelope without error", `{"ok":false}`, true, ""},
		{"envelope with null error", `{"ok":false,"error":null}`, true, ""},
		{"envelope with invalid inner category", `{"ok":false,"error":{"code":"X","category":"oops","status":400}}`, false, "unknown category"},
		{"envelope with non-object error", `{"ok":false,"error":"boom"}`, false, "parse envelope"},
		{"no code", `{"category":"not_found","status":404}`, true, ""},
		{"invalid code", `{"code":"not_found","category":"not_found","status":404}`, true, ""},
		{"no category", `{"code":"NOT_FOUND","status":404}`, true, ""},
		{"invalid category", `{"code":"NOT_FOUND","category":"oops","status":404}`, false, `unknown category "oops"`},
		{"invalid severity", `{` + minimal + `,"severity":"loud"}`, false, `unknown severity "loud"`},
		{"status 200", `{"code":"NOT_FOUND","category":"not_found","status":200}`, true, ""},
		{"status 600", `{"code":"NOT_FOUND","category":"not_found","status":600}`, true, ""},
		{"no status", `{"code":"NOT_FOUND","category":"not_found"}`, true, ""},
		{"status as string", `{"code":"NOT_FOUND","category":"not_found","status":"404"}`, false, "status"},
		{"retryable as string", `{` + minimal + `,"retryable":"yes"}`, false, "retryable"},
		{"suggestions not strings", `{` + minimal + `,"suggestions":[1]}`, false, "suggestions"},
		{"empty object", `{}`, true, ""},
		{"trailing garbage", `{` + minimal + `} x`, false, "trailing data"},
		{"trailing object", `{` + minimal + `}{}`, false, "trailing data"},
		{"trailing brace", `{` + minimal + `}}`, false, "trailing data"},
		{"trailing bracket", `{` + minimal + `}]`, false, "trailing data"},
		{"envelope trailing brace", `{"ok":false,"error":{` + minimal + `}}}`, false, "trailing data"},
		{"not JSON", `<html>502 Bad Gateway</html>`, false, "toolerr: parse"},
		{"truncated", `{"code":"NOT_FOUND"`, false, "toolerr: parse"},
		{"empty", ``, false, "toolerr: parse"},
		{"array", `[{` + minimal + `}]`, false, "toolerr: parse"},
		{"string", `"NOT_FOUND"`, false, "toolerr: parse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Parse([]byte(tc.body))
			require.Error(t, err)
			assert.Nil(t, e)
			if tc.notAnError {
				assert.ErrorIs(t, err, ErrNotAnError)
			} else {
				assert.NotErrorIs(t, err, ErrNotAnError)
				assert.Contains(t, err.Error(), tc.want)
			}
		})
	}
}

func TestParseBodyLimit(t *testing.T) {
	pad := strings.Repeat(" ", MaxBodyLen)
	body := []byte(`{"code":"NOT_FOUND","category":"not_found","status":404}` + pad)
	require.Greater(t, len(body), MaxBodyLen)
	_, err := Parse(body)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "limit")
	assert.NotErrorIs(t, err, ErrNotAnError)

	// Exactly at the limit is still read.
	atLimit := []byte(`{"code":"NOT_FOUND","category":"not_found","status":404}`)
	atLimit = append(atLimit, strings.Repeat(" ", MaxBodyLen-len(atLimit))...)
	require.Len(t, atLimit, MaxBodyLen)
	e, err := Parse(atLimit)
	require.NoError(t, err)
	assert.Equal(t, CodeNotFound, e.Code)
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		ms   string
		want time.Duration
	}{
		{"1500", 1500 * time.Millisecond},
		{"1", time.Millisecond},
		{"0", 0},
		{"-5", 0},
		{"9223372036854775807", time.Duration(int64(1<<63-1) / int64(time.Millisecond) * int64(time.Millisecond))},
	}
	for _, tc := range tests {
		e, err := Parse([]byte(`{"code":"RATE_LIMITED","category":"rate_limit","status":429,"retryable":true,"retry_after_ms":` + tc.ms +
			`,"retry_policy":{"strategy":"retry_after","base_ms":250,"max_attempts":4,"idempotency_required":true}}`))
		require.NoError(t, err, tc.ms)
		assert.Equal(t, tc.want, e.RetryAfter, tc.ms)
		require.NotNil(t, e.RetryPolicy)
		assert.Equal(t, RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 250 * time.Millisecond, MaxAttempts: 4, IdempotencyRequired: true}, *e.RetryPolicy)
		assert.True(t, e.Retryable)
	}
	_, err := Parse([]byte(`{"code":"RATE_LIMITED","category":"rate_limit","status":429,"retry_after_ms":1.5}`))
	assert.Error(t, err, "a fractional retry_after_ms is a type error")
}

func TestParseItems(t *testing.T) {
	body := `{"code":"PARTIAL_FAILURE","category":"conflict","status":409,"errors":[` +
		`{"index":0,"code":"VALIDATION_FAILED","category":"validation","status":400,"field":"items/0/qty","detail":"qty must be positive"},` +
		`{"code":"NO_INDEX","category":"validation","status":400},` +
		`{"index":7,"code":"NOT_FOUND","category":"not_found","status":404}]}`
	e, err := Parse([]byte(body))
	require.NoError(t, err)
	require.Len(t, e.Errors, 2, "an item without index is skipped")
	assert.Equal(t, 0, e.Errors[0].Index)
	assert.Equal(t, CodeValidationFailed, e.Errors[0].Err.Code)
	assert.Equal(t, "items/0/qty", e.Errors[0].Err.Field)
	assert.Equal(t, "qty must be positive", e.Errors[0].Err.Detail)
	assert.Equal(t, 7, e.Errors[1].Index)
	assert.Equal(t, CodeNotFound, e.Errors[1].Err.Code)
	assert.Equal(t, 404, e.Errors[1].Err.Status)
}

func TestParseRenderedFullError(t *testing.T) {
	src := renderFullError()
	for _, body := range [][]byte{src.AppendJSON(nil), src.AppendEnvelope(nil)} {
		e, err := Parse(body)
		require.NoError(t, err)
		assert.Equal(t, src.Code, e.Code)
		assert.Equal(t, src.Detail, e.Detail)
		assert.Equal(t, src.Type, e.Type)
		assert.Equal(t, src.RetryAfter, e.RetryAfter)
		require.Len(t, e.Errors, 2)
		assert.Equal(t, 0, e.Errors[0].Index)
		assert.Equal(t, "", e.Errors[0].Err.RequestID, "item ids are not rendered")
		// A second rendering is stable once the values are in their decoded form.
		again := e.AppendJSON(nil)
		back, err := Parse(again)
		require.NoError(t, err)
		assert.Equal(t, string(again), string(back.AppendJSON(nil)))
		require.NoError(t, Validate(again))
	}
}

func TestUnmarshalJSONIntoError(t *testing.T) {
	var e Error
	require.NoError(t, json.Unmarshal([]byte(parseProblem), &e))
	assert.Equal(t, CodeValidationFailed, e.Code)
	assert.Equal(t, CategoryValidation, e.Category)
	assert.Equal(t, 400, e.Status)
	assert.Equal(t, "limit", e.Field)
	assert.Equal(t, json.Number("100"), e.SuggestedValue, "numbers decode as json.Number")
	assert.Equal(t, "req-1", e.RequestID)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, 503, e.Upstream.Status)

	// As a member of a caller's struct, through a pointer.
	var resp struct {
		OK  bool   `json:"ok"`
		Err *Error `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"ok":false,"error":`+parseProblem+`}`), &resp))
	require.NotNil(t, resp.Err)
	assert.Equal(t, CodeValidationFailed, resp.Err.Code)

	// Marshal and unmarshal round-trip through encoding/json.
	src := Default().New(CodeGone, "order 7 was deleted").WithRequestID("req-1")
	b, err := json.Marshal(src)
	require.NoError(t, err)
	var back Error
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, src.Code, back.Code)
	assert.Equal(t, src.Severity, back.Severity)
	assert.Equal(t, src.Detail, back.Detail)
	assert.Equal(t, src.Suggestions, back.Suggestions)

	var bad Error
	err = json.Unmarshal([]byte(`{"category":"oops"}`), &bad)
	assert.Error(t, err)
	assert.True(t, errors.As(err, new(*json.UnmarshalTypeError)) || strings.Contains(err.Error(), "unknown category"), "%v", err)
}
