package mcptest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// caseUnknownTool: with WithUnknownToolResult (which the suite installs),
// a call of a tool the server does not have is a TOOL_NOT_FOUND tool
// result, not a protocol error no model sees: a near miss names the tool
// most plausibly meant as suggested_value and the nearest as
// allowed_values; a name near several tools suggests none; a name near
// none lists none. The called tool never runs in its stead.
func caseUnknownTool() *testCase {
	var ran int
	count := func(context.Context, json.RawMessage) (any, error) { ran++; return map[string]any{"ok": true}, nil }
	return &testCase{
		name: "unknown tool/a near miss gets TOOL_NOT_FOUND naming the tool meant, never run in its stead",
		tools: []Tool{
			newTool("search_berths", count),
			newTool("book_berth_slot", count),
			newTool("book_berth_slots", count),
		},
		calls: []call{
			callOf("search_berth", `{}`),
			callOf("book_berth_slotz", `{}`),
			callOf("launch_rocket", `{}`),
		},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
			assert.Equal(t, "name", p["field"])
			assert.Equal(t, "search_berths", p["suggested_value"], "one tool is plausibly meant")
			assert.Contains(t, p["allowed_values"], "search_berths")
			assert.Contains(t, r.text(t, 0), "search_berths", "the text a model reads names the tool")

			p = r.failed(t, 1)
			assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
			assert.NotContains(t, p, "suggested_value", "two tools are as near: none is suggested")
			near, _ := p["allowed_values"].([]any)
			if assert.GreaterOrEqual(t, len(near), 2, "%v", p["allowed_values"]) {
				assert.ElementsMatch(t, []any{"book_berth_slot", "book_berth_slots"}, near[:2], "the nearest come first")
			}

			p = r.failed(t, 2)
			assert.Equal(t, toolerr.CodeToolNotFound, p["code"])
			assert.NotContains(t, p, "suggested_value")
			assert.NotContains(t, p, "allowed_values", "no unrelated tool is offered")
			assert.Zero(t, ran, "no tool ran in place of the one called")
		},
	}
}
