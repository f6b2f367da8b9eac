package errdocs

import (
	"strings"

	"github.com/toolerr/toolerr"
)

// ToolError is one entry of the compact errors array of a function-calling
// tool description: what a model needs to plan around a code before it
// ever sees one.
type ToolError struct {
	// Code is the registered code.
	Code string `json:"code"`
	// Category is the code's taxonomy category.
	Category toolerr.Category `json:"category"`
	// Retryable is the code's default retryability.
	Retryable bool `json:"retryable"`
	// Hint is the code's imperative next step for the model, on one line.
	Hint string `json:"hint"`
}

// ToolErrors returns the compact errors array of a tool description for
// the given codes of r, in the order given, each once. Codes not
// registered in r or its parents are left out. With no codes it lists
// every code in the order of [Markdown]: by category, then by code.
func ToolErrors(r *toolerr.Registry, codes ...string) []ToolError {
	defs := selectDefs(orDefault(r), codes)
	out := make([]ToolError, 0, len(defs))
	for _, d := range defs {
		out = append(out, ToolError{Code: d.Code, Category: d.Category, Retryable: d.Retryable, Hint: oneLine(d.Hint)})
	}
	return out
}

// MCPErrorsBlock returns the "## Errors" block to append to an MCP tool's
// description: the heading, then one Markdown list item per code,
//
//	## Errors
//	- RATE_LIMITED (rate_limit, retryable after retry_after_ms): Wait retry_after_ms, then …
//	- NOT_FOUND (not_found, not retryable): Do not retry with the same identifier. …
//
// where a retryable code says "retryable after retry_after_ms" or
// "retryable with backoff" after its retry strategy. Codes are chosen and
// ordered as by [ToolErrors]; with no code registered the result is "".
// The block ends with a newline.
func MCPErrorsBlock(r *toolerr.Registry, codes ...string) string {
	defs := selectDefs(orDefault(r), codes)
	if len(defs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Errors\n")
	for _, d := range defs {
		b.WriteString("- ")
		b.WriteString(d.Code)
		b.WriteString(" (")
		b.WriteString(string(d.Category))
		b.WriteString(", ")
		b.WriteString(retryPhrase(d))
		b.WriteString("): ")
		b.WriteString(oneLine(d.Hint))
		b.WriteString("\n")
	}
	return b.String()
}

// selectDefs returns the definitions of codes in r in the order given,
// each once, skipping unregistered codes; with no codes, every definition
// in documentation order.
func selectDefs(r *toolerr.Registry, codes []string) []toolerr.Def {
	if len(codes) == 0 {
		return docDefs(r)
	}
	out := make([]toolerr.Def, 0, len(codes))
	seen := make(map[string]bool, len(codes))
	for _, code := range codes {
		if seen[code] {
			continue
		}
		seen[code] = true
		if d, ok := r.Lookup(code); ok {
			out = append(out, d)
		}
	}
	return out
}

// retryPhrase is the short retryability of d for a tool description.
func retryPhrase(d toolerr.Def) string {
	switch {
	case !d.Retryable:
		return "not retryable"
	case d.Retry.Strategy == toolerr.StrategyRetryAfter:
		return "retryable after retry_after_ms"
	default:
		return "retryable with backoff"
	}
}
