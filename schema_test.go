package toolerr

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/problemschema"
)

const (
	problemSchemaFile = "errdocs/problem.schema.json"
	problemSchemaID   = problemschema.ID
)

// compileProblemSchema compiles the published problem schema.
func compileProblemSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := os.ReadFile(problemSchemaFile)
	require.NoError(t, err)
	return problemschema.Compile(t, doc)
}

// decodeInstance decodes JSON the way the validator expects (numbers as json.Number).
func decodeInstance(t *testing.T, b []byte) any { return problemschema.Instance(t, b) }

// assertRenderingsValid validates both renderings of e against the schema.
func assertRenderingsValid(t *testing.T, sch *jsonschema.Schema, e *Error) {
	t.Helper()
	problem := e.AppendJSON(nil)
	assert.NoError(t, sch.Validate(decodeInstance(t, problem)), "problem: %s", problem)

	envelope := e.AppendEnvelope(nil)
	env, ok := decodeInstance(t, envelope).(map[string]any)
	require.True(t, ok, "envelope is not an object: %s", envelope)
	assert.Equal(t, false, env["ok"])
	require.Contains(t, env, "error")
	assert.NoError(t, sch.Validate(env["error"]), "envelope: %s", envelope)
}

func TestSchemaBuiltinCodes(t *testing.T) {
	sch := compileProblemSchema(t)
	withDocs := NewRegistry(Default(), WithDocsBase("https://toolerr.dev/codes/"))
	defs := Default().Defs()
	require.NotEmpty(t, defs)
	for _, def := range defs {
		t.Run(def.Code, func(t *testing.T) {
			assertRenderingsValid(t, sch, Default().New(def.Code, "").WithRequestID("req-123"))
			assertRenderingsValid(t, sch, withDocs.New(def.Code, "occurrence detail").WithRequestID("req-123"))
		})
	}
}

func TestSchemaFullyPopulated(t *testing.T) {
	sch := compileProblemSchema(t)
	reg := NewRegistry(Default(), WithDocsBase("https://toolerr.dev/codes/"))
	e := reg.New(CodeUpstreamUnavailable, "The inventory service did not answer.").
		WithInstance("/v1/orders").
		WithRetryAfter(1500*time.Millisecond).
		WithField("items/0/quantity").
		WithAllowedValues(Range{Minimum: 1, Maximum: 100}).
		WithSuggestedValue(10).
		WithSuggestions("Retry in a moment.", "Use the cached catalogue.").
		WithActions(ActionReadStateFirst, ActionUseFallbackPrefix+"inventory_cache").
		WithRelatedCodes(CodeCircuitOpen, CodeUpstreamTimeout).
		WithDetails(map[string]any{"sku": "A-1", "attempts": 2, "ratio": 0.5, "tags": []string{"x"}}).
		WithExampleRequest(map[string]any{"sku": "A-1", "quantity": 10}).
		WithViolations(Violation{Field: "/items/0/quantity", Reason: "must be at most 100",
			AllowedValues: Range{Minimum: 1, Maximum: 100}, SuggestedValue: 10}, Violation{Field: "", Reason: "x"}).
		WithIntent(Intent{Operation: "create_order", ResourceID: "ord-1", State: "submitted", Recovery: "GET /v1/orders/ord-1"}).
		WithTool("create_order").
		WithUpstream(Upstream{Vendor: "inventory", Status: 503, Code: "unavailable", RequestID: "up-9"}).
		WithItems(
			ItemError{Index: 0, Err: Default().New(CodeValidationFailed, "bad sku").WithField("items/0/sku")},
			ItemError{Index: 2, Err: Default().New(CodeRateLimited, "").WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736")},
		).
		WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736").
		WithRequestID("req-123")
	require.True(t, e.Retryable)
	require.NotNil(t, e.RetryPolicy)

	assertRenderingsValid(t, sch, e)

	// Every optional member must really be rendered, or the test proves nothing.
	rendered, ok := decodeInstance(t, e.AppendJSON(nil)).(map[string]any)
	require.True(t, ok)
	for _, member := range []string{
		"instance", "retry_after_ms", "field", "allowed_values", "suggested_value", "hint",
		"human_hint", "suggestions", "actions", "docs_url", "related_codes", "details",
		"example_request", "retry_policy", "intent", "tool", "upstream", "errors", "trace_id",
	} {
		assert.Contains(t, rendered, member)
	}
	require.Len(t, rendered["errors"], 2)
}

// validProblem is a minimal valid problem; each negative case breaks it in one way.
const validProblem = `{
	"type": "urn:toolerr:RATE_LIMITED", "title": "Too many requests", "status": 429,
	"detail": "Too many requests", "code": "RATE_LIMITED", "category": "rate_limit",
	"severity": "error", "retryable": true, "retry_after_ms": 1000,
	"retry_policy": {"strategy": "retry_after", "base_ms": 1000, "max_attempts": 3, "idempotency_required": false},
	"actions": ["use_fallback:cache"],
	"errors": [{"index": 0, "type": "urn:toolerr:NOT_FOUND", "title": "Not found", "status": 404,
		"detail": "Not found", "code": "NOT_FOUND", "category": "not_found", "severity": "error", "retryable": false}],
	"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "request_id": "req-123"
}`

func TestSchemaRejects(t *testing.T) {
	sch := compileProblemSchema(t)
	require.NoError(t, sch.Validate(decodeInstance(t, []byte(validProblem))), "the base case must be valid")

	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string // in the validation error: the failure is for the intended reason
	}{
		{"missing request_id", func(m map[string]any) { delete(m, "request_id") }, "missing property 'request_id'"},
		{"unknown category", func(m map[string]any) { m["category"] = "oops" }, "at '/category'"},
		{"status 200", func(m map[string]any) { m["status"] = json.Number("200") }, "at '/status'"},
		{"retryable rate_limit without retry_after_ms", func(m map[string]any) { delete(m, "retry_after_ms") },
			"missing property 'retry_after_ms'"},
		{"retryable validation", func(m map[string]any) { m["category"], m["code"] = "validation", "VALIDATION_FAILED" },
			"value must be one of 'rate_limit', 'transient', 'internal'"},
		{"retry_policy on a non-retryable error", func(m map[string]any) { m["retryable"] = false }, "at '/retryable'"},
		{"unknown top-level member", func(m map[string]any) { m["stack"] = "main.go:1" }, "'stack' not allowed"},
		{"trace_id all zeros", func(m map[string]any) { m["trace_id"] = "00000000000000000000000000000000" }, "at '/trace_id'"},
		{"item without index", func(m map[string]any) { delete(firstItem(m), "index") }, "missing property 'index'"},
		{"item with request_id", func(m map[string]any) { firstItem(m)["request_id"] = "r" }, "'request_id' not allowed"},
		{"action reboot", func(m map[string]any) { m["actions"] = []any{"reboot"} }, "at '/actions/0'"},
		{"malformed code", func(m map[string]any) { m["code"] = "rate__limited" }, "at '/code'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := decodeInstance(t, []byte(validProblem)).(map[string]any)
			tt.mutate(m)
			err := sch.Validate(m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}

	// The same rate-limit rule, written out in full rather than derived.
	handWritten := `{"type": "urn:toolerr:RATE_LIMITED", "title": "Too many requests", "status": 429,
		"detail": "Slow down", "code": "RATE_LIMITED", "category": "rate_limit", "severity": "error",
		"retryable": true, "request_id": "req-123"}`
	err := sch.Validate(decodeInstance(t, []byte(handWritten)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing property 'retry_after_ms'")
}

func firstItem(m map[string]any) map[string]any {
	return m["errors"].([]any)[0].(map[string]any)
}
