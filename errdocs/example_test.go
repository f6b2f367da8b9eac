package errdocs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

func ExampleMCPErrorsBlock() {
	reg := toolerr.NewRegistry(toolerr.Default())
	_ = reg.Register(
		toolerr.Def{
			Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation, Status: 422,
			Title:     "The amount exceeds the refundable balance",
			Hint:      "Lower amount to details.refundable_balance_minor or less.",
			HumanHint: "The refund is larger than what can be refunded.",
		},
		toolerr.Def{
			Code: "LEDGER_BUSY", Category: toolerr.CategoryTransient, Status: 503, Retryable: true,
			Retry:     toolerr.RetryPolicy{Strategy: toolerr.StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3},
			Title:     "The ledger is busy",
			Hint:      "Let the orchestrator retry; do not change the arguments.",
			HumanHint: "The ledger is busy; this will be retried.",
		},
	)
	fmt.Print(errdocs.MCPErrorsBlock(reg, "AMOUNT_EXCEEDS_REFUNDABLE", "LEDGER_BUSY"))
	// Output:
	// ## Errors
	// - AMOUNT_EXCEEDS_REFUNDABLE (validation, not retryable): Lower amount to details.refundable_balance_minor or less.
	// - LEDGER_BUSY (transient, retryable with backoff): Let the orchestrator retry; do not change the arguments.
}

// A service documents its codes from the registry that extends Default:
// one Markdown page, committed and checked for drift in CI.
func ExampleMarkdown() {
	reg := toolerr.NewRegistry(toolerr.Default())
	_ = reg.Register(toolerr.Def{
		Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation, Status: 422,
		Title:     "The amount exceeds the refundable balance",
		Hint:      "Lower amount to details.refundable_balance_minor or less.",
		HumanHint: "The refund is larger than what can be refunded.",
	})
	doc := errdocs.Markdown(reg)
	fmt.Println(string(doc[:bytes.IndexByte(doc, '\n')]))
	fmt.Println(bytes.Contains(doc, []byte("\n### AMOUNT_EXCEEDS_REFUNDABLE\n")))
	// Output:
	// # Error codes
	// true
}

// The OpenAPI document's components merge into a service's own API
// description; x-agent-error-codes classifies every code for gateways.
func ExampleOpenAPI() {
	doc, err := errdocs.OpenAPI(toolerr.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	var api struct {
		Components struct {
			Codes []errdocs.AgentErrorCode `json:"x-agent-error-codes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &api); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range api.Components.Codes {
		if c.Code == toolerr.CodeRateLimited {
			fmt.Println(c.Code, c.Status, c.Category, c.Retryable)
		}
	}
	// Output:
	// RATE_LIMITED 429 rate_limit true
}

// A function-calling tool description carries the compact errors array.
func ExampleToolErrors() {
	b, _ := json.Marshal(errdocs.ToolErrors(toolerr.Default(), toolerr.CodeNotFound))
	var list []map[string]any
	_ = json.Unmarshal(b, &list)
	fmt.Println(list[0]["code"], list[0]["category"], list[0]["retryable"])
	// Output:
	// NOT_FOUND not_found false
}
