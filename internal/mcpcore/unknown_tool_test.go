package mcpcore

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

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
