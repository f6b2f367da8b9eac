package mcptest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/otel/attribute"

	"github.com/toolerr/toolerr"
)

// checkCallCounts checks that every call the client made is one count in
// toolerr.tool.calls, under its tool's name (gen_ai.tool.name), and a call
// of a tool the server does not have under no name: a name a client made
// up is no attribute value. Tools with a call the client cancelled are
// left out, as in checkFailureCounts.
func (r *rig) checkCallCounts(t *testing.T, outs []outcome) {
	t.Helper()
	want := map[string]int64{}
	for _, o := range outs {
		tool := o.call.tool
		p := object(object(o.result, "_meta"), metaProblem)
		if p != nil && str(p, "code") == toolerr.CodeToolNotFound {
			tool = ""
		}
		want[tool]++
	}
	for _, o := range outs {
		if o.call.cancelAfter > 0 {
			delete(want, o.call.tool)
		}
	}
	got := r.calls(t)
	for _, o := range outs {
		if o.call.cancelAfter > 0 {
			delete(got, o.call.tool)
		}
	}
	// A call of a tool the server does not have counts under no name, or
	// not at all where the library answers it before any middleware
	// (mcp-go): never under the name the client made up.
	assert.LessOrEqual(t, got[""], want[""], "calls of no tool the server has")
	delete(got, "")
	delete(want, "")
	assert.Equal(t, want, got, "toolerr.tool.calls by gen_ai.tool.name")
}

// calls returns the toolerr.tool.calls counter's values by tool.
func (r *rig) calls(t *testing.T) map[string]int64 {
	t.Helper()
	return counterBy(t, r, "toolerr.tool.calls", func(a attribute.Set) string {
		tool, _ := a.Value("gen_ai.tool.name")
		return tool.AsString()
	})
}
