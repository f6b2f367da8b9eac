package toolerr

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// valBase is a valid rendering with an item, decoded into a map to be broken.
func valBase(t *testing.T) map[string]any {
	t.Helper()
	e := Default().New(CodePartialFailure, "2 of 5 items failed").WithRequestID("req-1").
		WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736").
		WithItems(ItemError{Index: 1, Err: Default().New(CodeNotFound, "")})
	return decodeRendered(t, e.AppendJSON(nil))
}

// valEncode re-encodes a broken rendering.
func valEncode(t *testing.T, m any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return b
}

// valErrCount is the number of problems Validate joined.
func valErrCount(t *testing.T, err error) int {
	t.Helper()
	require.Error(t, err)
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "Validate joins its problems: %T", err)
	return len(joined.Unwrap())
}

func TestValidateAcceptsRenderings(t *testing.T) {
	base := valBase(t)
	require.NoError(t, Validate(valEncode(t, base)))
	require.NoError(t, Validate(valEncode(t, map[string]any{"ok": false, "error": base})))
	require.NoError(t, Validate(renderFullError().AppendJSON(nil)))
	require.NoError(t, Validate(renderFullError().AppendEnvelope(nil)))
}

func TestValidateRequiredMembers(t *testing.T) {
	for _, name := range []string{"type", "title", "status", "detail", "code", "category", "severity", "retryable", "request_id"} {
		t.Run(name, func(t *testing.T) {
			m := valBase(t)
			delete(m, name)
			err := Validate(valEncode(t, m))
			require.Error(t, err)
			assert.Contains(t, err.Error(), `required member "`+name+`" is missing`)
			assert.Equal(t, 1, valErrCount(t, err), "%v", err)

			env := Validate(valEncode(t, map[string]any{"ok": false, "error": m}))
			require.Error(t, env)
			assert.Contains(t, env.Error(), `required member "`+name+`" is missing`, "inside an envelope too")
		})
	}
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"status as string", func(m map[string]any) { m["status"] = "400" }, "status: must be an integer"},
		{"status fractional", func(m map[string]any) { m["status"] = 400.5 }, "status: must be an integer"},
		{"status 399", func(m map[string]any) { m["status"] = 399 }, "status: 399 is outside 400..599"},
		{"status 600", func(m map[string]any) { m["status"] = 600 }, "status: 600 is outside 400..599"},
		{"title as number", func(m map[string]any) { m["title"] = 5 }, "title: must be a string"},
		{"empty title", func(m map[string]any) { m["title"] = "" }, "title: length 0 is outside 1..128"},
		{"retryable as string", func(m map[string]any) { m["retryable"] = "false" }, "retryable: must be a boolean"},
		{"suggestions as string", func(m map[string]any) { m["suggestions"] = "s" }, "suggestions: must be an array of at most 16 strings"},
		{"suggestion as number", func(m map[string]any) { m["suggestions"] = []any{1} }, "suggestions[0]: must be a string"},
		{"details as array", func(m map[string]any) { m["details"] = []any{1} }, "details: must be an object"},
		{"intent as string", func(m map[string]any) { m["intent"] = "x" }, "intent: must be an object"},
		{"intent without operation", func(m map[string]any) { m["intent"] = map[string]any{"state": "s"} }, `intent: required member "operation" is missing`},
		{"upstream unknown member", func(m map[string]any) { m["upstream"] = map[string]any{"vendor": "v", "body": "raw"} }, `upstream: unknown member "body"`},
		{"bad code", func(m map[string]any) { m["code"] = "partial_failure" }, `code: invalid value "partial_failure"`},
		{"code too long", func(m map[string]any) { m["code"] = strings.Repeat("A", 65) }, "code: length 65 is outside 1..64"},
		{"unknown category", func(m map[string]any) { m["category"] = "oops" }, `category: invalid value "oops"`},
		{"unknown severity", func(m map[string]any) { m["severity"] = "critical" }, `severity: invalid value "critical"`},
		{"retryable validation", func(m map[string]any) { m["category"], m["retryable"] = "validation", true }, `retryable is true but category "validation" cannot be retried`},
		{"retryable rate_limit without retry_after_ms", func(m map[string]any) { m["category"], m["retryable"] = "rate_limit", true }, "a retryable rate_limit error must carry retry_after_ms"},
		{"retry_policy without retryable", func(m map[string]any) {
			m["retry_policy"] = map[string]any{"strategy": "exponential_backoff", "base_ms": 500, "max_attempts": 3, "idempotency_required": false}
		}, "retry_policy is present on an error that is not retryable"},
		{"retry_policy bad strategy", func(m map[string]any) {
			m["category"], m["retryable"] = "transient", true
			m["retry_policy"] = map[string]any{"strategy": "linear", "base_ms": 500, "max_attempts": 3, "idempotency_required": false}
		}, `retry_policy.strategy: invalid value "linear"`},
		{"retry_policy missing member", func(m map[string]any) {
			m["category"], m["retryable"] = "transient", true
			m["retry_policy"] = map[string]any{"strategy": "retry_after", "base_ms": 500, "max_attempts": 3}
		}, `retry_policy: required member "idempotency_required" is missing`},
		{"negative retry_after_ms", func(m map[string]any) { m["retry_after_ms"] = -1 }, "retry_after_ms: -1 is outside"},
		{"unknown member", func(m map[string]any) { m["stack"] = "main.go:12" }, `unknown member "stack"`},
		{"unknown action", func(m map[string]any) { m["actions"] = []any{"read_state_first", "reboot"} }, `actions[1]: invalid value "reboot"`},
		{"bad related code", func(m map[string]any) { m["related_codes"] = []any{"nope"} }, `related_codes[0]: invalid value "nope"`},
		{"docs_url not http", func(m map[string]any) { m["docs_url"] = "javascript:alert(1)" }, "docs_url: invalid value"},
		{"trace_id all zeros", func(m map[string]any) { m["trace_id"] = "00000000000000000000000000000000" }, "trace_id: invalid value"},
		{"trace_id upper-case", func(m map[string]any) { m["trace_id"] = "4BF92F3577B34DA6A3CE929D0E0E4736" }, "trace_id: invalid value"},
		{"trace_id short", func(m map[string]any) { m["trace_id"] = "4bf92f35" }, "trace_id: length 8 is outside 32..32"},
		{"request_id with space", func(m map[string]any) { m["request_id"] = "req 1" }, `request_id: invalid value "req 1"`},
		{"request_id with CRLF", func(m map[string]any) { m["request_id"] = "req\r\n1" }, "request_id: invalid value"},
		{"detail over MaxDetailLen", func(m map[string]any) { m["detail"] = strings.Repeat("d", MaxDetailLen+1) }, "detail: length 2049 is outside 1..2048"},
		{"hint over MaxHintLen", func(m map[string]any) { m["hint"] = strings.Repeat("h", MaxHintLen+1) }, "hint: length 513 is outside 0..512"},
		{"too many suggestions", func(m map[string]any) {
			s := make([]any, MaxListLen+1)
			for i := range s {
				s[i] = "step"
			}
			m["suggestions"] = s
		}, "suggestions: must be an array of at most 16 strings"},
		{"empty suggestion", func(m map[string]any) { m["suggestions"] = []any{""} }, "suggestions[0]: length 0 is outside 1..256"},
		{"allowed_values too large", func(m map[string]any) { m["allowed_values"] = strings.Repeat("v", MaxValueLen) }, "allowed_values: encodes to more than 4096 bytes"},
		{"details too large", func(m map[string]any) { m["details"] = map[string]any{"x": strings.Repeat("v", MaxObjectLen)} }, "details: encodes to more than 8192 bytes"},
		{"errors not an array", func(m map[string]any) { m["errors"] = map[string]any{} }, "errors: must be an array of at most 100 objects"},
		{"item not an object", func(m map[string]any) { m["errors"] = []any{"x"} }, "errors[0]: must be an object"},
		{"item missing index", func(m map[string]any) { delete(m["errors"].([]any)[0].(map[string]any), "index") }, `errors[0]: required member "index" is missing`},
		{"item negative index", func(m map[string]any) { m["errors"].([]any)[0].(map[string]any)["index"] = -1 }, "errors[0].index: -1 is outside"},
		{"item with request_id", func(m map[string]any) { m["errors"].([]any)[0].(map[string]any)["request_id"] = "req-1" }, `errors[0]: unknown member "request_id"`},
		{"item with trace_id", func(m map[string]any) {
			m["errors"].([]any)[0].(map[string]any)["trace_id"] = "4bf92f3577b34da6a3ce929d0e0e4736"
		}, `errors[0]: unknown member "trace_id"`},
		{"item missing code", func(m map[string]any) { delete(m["errors"].([]any)[0].(map[string]any), "code") }, `errors[0]: required member "code" is missing`},
		{"item bad category", func(m map[string]any) { m["errors"].([]any)[0].(map[string]any)["category"] = "oops" }, `errors[0].category: invalid value "oops"`},
		{"too many items", func(m map[string]any) {
			item := m["errors"].([]any)[0]
			items := make([]any, MaxItems+1)
			for i := range items {
				items[i] = item
			}
			m["errors"] = items
		}, "errors: must be an array of at most 100 objects"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := valBase(t)
			tc.mutate(m)
			err := Validate(valEncode(t, m))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "toolerr: validate: "), "%v", err)
		})
	}
}

func TestValidateBodies(t *testing.T) {
	valid := string(valEncode(t, valBase(t)))
	tests := []struct {
		name string
		body string
		want string
	}{
		{"envelope ok true", `{"ok":true,"error":` + valid + `}`, "envelope ok must be false"},
		{"envelope ok as string", `{"ok":"false","error":` + valid + `}`, "envelope ok must be false"},
		{"envelope error not an object", `{"ok":false,"error":"boom"}`, "envelope error must be an object"},
		{"envelope without error", `{"ok":false}`, "envelope error must be an object"},
		{"envelope with extra member", `{"ok":false,"error":` + valid + `,"data":null}`, "envelope has members other than ok and error"},
		{"not JSON", `not json`, "not a JSON object"},
		{"empty", ``, "not a JSON object"},
		{"a JSON array", `[` + valid + `]`, "not a JSON object"},
		{"a JSON string", `"x"`, "not a JSON object"},
		{"trailing garbage", valid + ` x`, "trailing data"},
		{"two objects", valid + valid, "trailing data"},
		{"trailing brace", valid + `}`, "trailing data"},
		{"trailing bracket", valid + `]`, "trailing data"},
		{"over MaxBodyLen", valid + strings.Repeat(" ", MaxBodyLen), "over"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate([]byte(tc.body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestValidateReportsAllProblems(t *testing.T) {
	m := valBase(t)
	m["status"] = 200                                         // 1
	m["code"] = "bad"                                         // 2
	m["stack"] = "x"                                          // 3
	m["trace_id"] = "00000000000000000000000000000000"        // 4
	m["category"], m["retryable"] = "validation", true        // 5: cannot be retried
	delete(m, "detail")                                       // 6
	m["errors"].([]any)[0].(map[string]any)["request_id"] = 1 // 7
	err := Validate(valEncode(t, m))
	assert.Equal(t, 7, valErrCount(t, err), "%v", err)
	for _, want := range []string{"status", `code: invalid value "bad"`, `unknown member "stack"`, "trace_id", "cannot be retried",
		`required member "detail"`, `errors[0]: unknown member "request_id"`} {
		assert.Contains(t, err.Error(), want)
	}

	var single error = Validate([]byte(`{"ok":true,"error":{}}`))
	assert.Equal(t, 1, valErrCount(t, single))
	assert.False(t, errors.Is(single, ErrNotAnError))
}
