package mcpcore

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestNearestTools: the names offered are the close ones, best first; the
// one plausibly meant is suggested only when it stands out.
func TestNearestTools(t *testing.T) {
	tools := []string{"refund_order", "refund_typed", "list_orders", "get_quote", "list_quotes", "ping"}
	for _, tc := range []struct {
		name      string
		near      []string
		suggested string
	}{
		{"refund_ordr", []string{"refund_order", "refund_typed"}, "refund_order"},
		{"RefundOrder", []string{"refund_order", "refund_typed"}, "refund_order"},
		{"refund-order", []string{"refund_order", "refund_typed"}, "refund_order"},
		{"get_quotes", []string{"get_quote", "list_quotes"}, "get_quote"},
		{"quote", []string{"get_quote", "list_quotes"}, ""},
		{"refund", []string{"refund_order", "refund_typed"}, ""},
		{"zzzz", nil, ""},
		{"", nil, ""},
	} {
		near, suggested := nearestTools(tc.name, tools)
		assert.Equal(t, tc.near, near, tc.name)
		assert.Equal(t, tc.suggested, suggested, tc.name)
	}
	near, suggested := nearestTools("a_b", []string{"a-b", "ab"})
	assert.Equal(t, []string{"a-b", "ab"}, near)
	assert.Empty(t, suggested, "two names equal but for separators: neither is the one meant")
}

// TestNearestToolsIsBounded: a long name, or a long list, costs little and
// offers at most five names.
func TestNearestToolsIsBounded(t *testing.T) {
	near, _ := nearestTools(strings.Repeat("a", maxRankedName+1), []string{strings.Repeat("a", maxRankedName+1)})
	assert.Nil(t, near)
	many := make([]string, 5000)
	for i := range many {
		many[i] = "tool_" + strings.Repeat("x", i%7)
	}
	near, _ = nearestTools("tool_xxx", many)
	assert.LessOrEqual(t, len(near), maxNearTools)
}

// TestUnknownTool: TOOL_NOT_FOUND on the field name, the called name in
// the detail (sanitized), the nearest tools, and no tool named.
func TestUnknownTool(t *testing.T) {
	c := New(WithLogger(slog.New(slog.DiscardHandler)))
	f := c.UnknownTool(context.Background(), "refund_ordr", []string{"refund_order", "ping"})
	require.NotNil(t, f)
	assert.Equal(t, toolerr.CodeToolNotFound, f.Err.Code)
	assert.Equal(t, "name", f.Err.Field)
	assert.Equal(t, `No tool is named "refund_ordr".`, f.Err.Detail)
	assert.Equal(t, []string{"refund_order"}, f.Err.AllowedValues)
	assert.Equal(t, "refund_order", f.Err.SuggestedValue)
	assert.Empty(t, f.Err.Tool)
	assert.Contains(t, f.Line, "suggested_value: \"refund_order\"")

	f = c.UnknownTool(context.Background(), "key sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd", nil)
	assert.NotContains(t, f.Line, "Rk7Qm2ZpX9aLw4Tn")
	assert.NotContains(t, string(f.Problem), "Rk7Qm2ZpX9aLw4Tn")
}
