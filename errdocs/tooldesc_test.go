package errdocs

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func TestMCPErrorsBlockLines(t *testing.T) {
	reg := exportRegistry(t)
	got := MCPErrorsBlock(reg, toolerr.CodeRateLimited, toolerr.CodeNotFound, toolerr.CodeUpstreamTimeout, "AMOUNT_EXCEEDS_REFUNDABLE", "NO_SUCH_CODE", toolerr.CodeNotFound)
	rate, _ := reg.Lookup(toolerr.CodeRateLimited)
	notFound, _ := reg.Lookup(toolerr.CodeNotFound)
	timeout, _ := reg.Lookup(toolerr.CodeUpstreamTimeout)
	want := "## Errors\n" +
		"- RATE_LIMITED (rate_limit, retryable after retry_after_ms): " + rate.Hint + "\n" +
		"- NOT_FOUND (not_found, not retryable): " + notFound.Hint + "\n" +
		"- UPSTREAM_TIMEOUT (transient, retryable with backoff): " + timeout.Hint + "\n" +
		"- AMOUNT_EXCEEDS_REFUNDABLE (validation, not retryable): Lower amount to details.refundable_balance_minor or less, then call again.\n"
	assert.Equal(t, want, got, "order given, each once, unknown codes left out, hints on one line")
}

func TestMCPErrorsBlockAllCodes(t *testing.T) {
	reg := exportRegistry(t)
	lines := strings.Split(strings.TrimSuffix(MCPErrorsBlock(reg), "\n"), "\n")
	require.Equal(t, "## Errors", lines[0])
	defs := docDefs(reg)
	require.Len(t, lines, len(defs)+1)
	for i, d := range defs {
		assert.True(t, strings.HasPrefix(lines[i+1], "- "+d.Code+" ("+string(d.Category)+", "), lines[i+1])
	}
	assert.Empty(t, MCPErrorsBlock(reg, "NO_SUCH_CODE"), "nothing to list, no heading")
}

func TestToolErrorsShape(t *testing.T) {
	reg := exportRegistry(t)
	got := ToolErrors(reg, toolerr.CodeRateLimited, "AMOUNT_EXCEEDS_REFUNDABLE", "NO_SUCH_CODE", toolerr.CodeRateLimited)
	rate, _ := reg.Lookup(toolerr.CodeRateLimited)
	assert.Equal(t, []ToolError{
		{Code: toolerr.CodeRateLimited, Category: toolerr.CategoryRateLimit, Retryable: true, Hint: rate.Hint},
		{Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation, Hint: "Lower amount to details.refundable_balance_minor or less, then call again."},
	}, got)

	b, err := json.Marshal(got[:1])
	require.NoError(t, err)
	hint, _ := json.Marshal(rate.Hint)
	assert.JSONEq(t, `[{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"hint":`+string(hint)+`}]`, string(b))
	var back []ToolError
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, got[:1], back)

	all := ToolErrors(reg)
	require.Len(t, all, len(reg.Defs()))
	for i, d := range docDefs(reg) {
		assert.Equal(t, d.Code, all[i].Code)
		assert.Equal(t, d.Retryable, all[i].Retryable)
	}
	assert.NotNil(t, ToolErrors(reg, "NO_SUCH_CODE"), "an empty array, not null, in JSON")
	assert.Empty(t, ToolErrors(reg, "NO_SUCH_CODE"))
}
