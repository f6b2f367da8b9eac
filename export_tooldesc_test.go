package toolerr

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMCPErrorsBlockLines(t *testing.T) {
	reg := exportRegistry(t)
	got := reg.MCPErrorsBlock(CodeRateLimited, CodeNotFound, CodeUpstreamTimeout, "AMOUNT_EXCEEDS_REFUNDABLE", "NO_SUCH_CODE", CodeNotFound)
	rate, _ := reg.Lookup(CodeRateLimited)
	notFound, _ := reg.Lookup(CodeNotFound)
	timeout, _ := reg.Lookup(CodeUpstreamTimeout)
	want := "## Errors\n" +
		"- RATE_LIMITED (rate_limit, retryable after retry_after_ms): " + rate.Hint + "\n" +
		"- NOT_FOUND (not_found, not retryable): " + notFound.Hint + "\n" +
		"- UPSTREAM_TIMEOUT (transient, retryable with backoff): " + timeout.Hint + "\n" +
		"- AMOUNT_EXCEEDS_REFUNDABLE (validation, not retryable): Lower amount to details.refundable_balance_minor or less, then call again.\n"
	assert.Equal(t, want, got, "order given, each once, unknown codes left out, hints on one line")
}

func TestMCPErrorsBlockAllCodes(t *testing.T) {
	reg := exportRegistry(t)
	lines := strings.Split(strings.TrimSuffix(reg.MCPErrorsBlock(), "\n"), "\n")
	require.Equal(t, "## Errors", lines[0])
	defs := reg.docDefs()
	require.Len(t, lines, len(defs)+1)
	for i, d := range defs {
		assert.True(t, strings.HasPrefix(lines[i+1], "- "+d.Code+" ("+string(d.Category)+", "), lines[i+1])
	}
	assert.Empty(t, reg.MCPErrorsBlock("NO_SUCH_CODE"), "nothing to list, no heading")
}

func TestToolErrorsShape(t *testing.T) {
	reg := exportRegistry(t)
	got := reg.ToolErrors(CodeRateLimited, "AMOUNT_EXCEEDS_REFUNDABLE", "NO_SUCH_CODE", CodeRateLimited)
	rate, _ := reg.Lookup(CodeRateLimited)
	assert.Equal(t, []ToolError{
		{Code: CodeRateLimited, Category: CategoryRateLimit, Retryable: true, Hint: rate.Hint},
		{Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: CategoryValidation, Hint: "Lower amount to details.refundable_balance_minor or less, then call again."},
	}, got)

	b, err := json.Marshal(got[:1])
	require.NoError(t, err)
	hint, _ := json.Marshal(rate.Hint)
	assert.JSONEq(t, `[{"code":"RATE_LIMITED","category":"rate_limit","retryable":true,"hint":`+string(hint)+`}]`, string(b))
	var back []ToolError
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, got[:1], back)

	all := reg.ToolErrors()
	require.Len(t, all, len(reg.Defs()))
	for i, d := range reg.docDefs() {
		assert.Equal(t, d.Code, all[i].Code)
		assert.Equal(t, d.Retryable, all[i].Retryable)
	}
	assert.NotNil(t, reg.ToolErrors("NO_SUCH_CODE"), "an empty array, not null, in JSON")
	assert.Empty(t, reg.ToolErrors("NO_SUCH_CODE"))
}

func ExampleRegistry_MCPErrorsBlock() {
	reg := NewRegistry(Default())
	_ = reg.Register(
		Def{
			Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: CategoryValidation, Status: 422,
			Title:     "The amount exceeds the refundable balance",
			Hint:      "Lower amount to details.refundable_balance_minor or less.",
			HumanHint: "The refund is larger than what can be refunded.",
		},
		Def{
			Code: "LEDGER_BUSY", Category: CategoryTransient, Status: 503, Retryable: true,
			Retry:     RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3},
			Title:     "The ledger is busy",
			Hint:      "Let the orchestrator retry; do not change the arguments.",
			HumanHint: "The ledger is busy; this will be retried.",
		},
	)
	fmt.Print(reg.MCPErrorsBlock("AMOUNT_EXCEEDS_REFUNDABLE", "LEDGER_BUSY"))
	// Output:
	// ## Errors
	// - AMOUNT_EXCEEDS_REFUNDABLE (validation, not retryable): Lower amount to details.refundable_balance_minor or less.
	// - LEDGER_BUSY (transient, retryable with backoff): Let the orchestrator retry; do not change the arguments.
}
