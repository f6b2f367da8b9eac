package mcptest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// caseSuccess: a successful call passes unchanged, with nothing recorded
// as a failure: a typed tool's output is its structuredContent and its
// JSON the text; an untyped tool's output is the text alone.
func caseSuccess() *testCase {
	return &testCase{
		name: "success/a successful call is unchanged and records no failure",
		tools: []Tool{
			typed(newTool("ok_typed", func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"price": 12.5}, nil
			})),
			newTool("ok_untyped", func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"berths": []string{"B1", "B2"}}, nil
			}),
		},
		calls: []call{callOf("ok_typed", `{}`), callOf("ok_untyped", `{}`)},
		check: func(t *testing.T, r *report) {
			res := r.succeeded(t, 0)
			assert.Equal(t, map[string]any{"price": 12.5}, res["structuredContent"])
			assert.Equal(t, `{"price":12.5}`, r.text(t, 0))
			res = r.succeeded(t, 1)
			assert.NotContains(t, res, "structuredContent", "a tool without an outputSchema has no structured output")
			assert.Equal(t, `{"berths":["B1","B2"]}`, r.text(t, 1))
			for _, tool := range []string{"ok_typed", "ok_untyped"} {
				for _, rec := range r.logs.records(t) {
					assert.NotEqual(t, tool, rec["tool"], "a success is logged as a failure: %v", rec)
				}
				for _, s := range r.spans.Ended() {
					if s.Name() == errorSpanName {
						assert.NotEqual(t, tool, spanAttributes(s)["gen_ai.tool.name"], "a success has a %s span", errorSpanName)
					}
				}
			}
		},
	}
}

// caseToolsList: every tool is listed as it was defined: description,
// input and output schema, and the annotations it declares.
func caseToolsList() *testCase {
	yes, no := true, false
	listed := typed(newTool("listed_tool", func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"price": 1}, nil
	}))
	listed.InputSchema = json.RawMessage(bookSchema)
	listed.Annotations = Annotations{ReadOnly: &no, Destructive: &yes, Idempotent: &no}
	return &testCase{
		name:  "tools/list is unchanged",
		tools: []Tool{listed},
		check: func(t *testing.T, r *report) {
			listing := map[string]map[string]any{}
			for _, tool := range r.listing {
				listing[str(tool, "name")] = tool
			}
			require.Len(t, listing, len(r.tools), "every tool is listed once")
			for name, tool := range r.tools {
				got := listing[name]
				require.NotNil(t, got, "%s is listed", name)
				assert.Equal(t, tool.Description, got["description"], "%s: description", name)
				assert.Equal(t, jsonValue(t, string(tool.InputSchema)), got["inputSchema"], "%s: inputSchema", name)
				if tool.OutputSchema != nil {
					assert.Equal(t, jsonValue(t, string(tool.OutputSchema)), got["outputSchema"], "%s: outputSchema", name)
				} else {
					assert.NotContains(t, got, "outputSchema", "%s declares no outputSchema", name)
				}
				hints := object(got, "annotations")
				for key, v := range map[string]*bool{"readOnlyHint": tool.Annotations.ReadOnly,
					"destructiveHint": tool.Annotations.Destructive, "idempotentHint": tool.Annotations.Idempotent} {
					if v != nil {
						assert.Equal(t, *v, hints[key], "%s: annotation %s", name, key)
					}
				}
			}
		},
	}
}
