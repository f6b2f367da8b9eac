package errdocs

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolerr/toolerr"
)

// AgentFallback is one fallback of a tool in the x-agent-fallbacks
// extension of [OpenAPI]: the alternative tool, the categories it
// covers, and whether it mutates.
type AgentFallback struct {
	// Tool is the alternative tool, offered as use_fallback:<tool>.
	Tool string `json:"tool"`
	// On lists the failure categories it covers.
	On []toolerr.Category `json:"on"`
	// Mutates says whether calling it changes state.
	Mutates bool `json:"mutates"`
}

// agentFallbacks returns every tool's declared fallbacks in r for
// OpenAPI, nil when none is declared.
func agentFallbacks(r *toolerr.Registry) map[string][]AgentFallback {
	declared := r.DeclaredFallbacks()
	if len(declared) == 0 {
		return nil
	}
	out := make(map[string][]AgentFallback, len(declared))
	for tool, fbs := range declared {
		for _, fb := range fbs {
			out[tool] = append(out[tool], AgentFallback(fb))
		}
	}
	return out
}

// writeFallbacks writes the "Fallback tools" section of Markdown, nothing
// when no tool of r declares fallbacks.
func writeFallbacks(b *bytes.Buffer, r *toolerr.Registry) {
	declared := r.DeclaredFallbacks()
	if len(declared) == 0 {
		return
	}
	b.WriteString("\n## Fallback tools\n\n")
	b.WriteString("A failure of a tool whose category a fallback covers carries `use_fallback:<fallback>` in its actions " +
		"and a hint that names it. A mutating fallback is never offered after an `auth`, `permission` or `policy` " +
		"failure, nor after a timeout or a failure that may have run of a write that carried no idempotency key.\n\n")
	b.WriteString("| Tool | Fallback | Covers | Mutates |\n|---|---|---|---|\n")
	for _, tool := range slices.Sorted(maps.Keys(declared)) {
		for _, fb := range declared[tool] {
			fmt.Fprintf(b, "| `%s` | `%s` | %s | %s |\n", tableCell(tool), tableCell(fb.Tool), categoryList(fb.On), yesNo(fb.Mutates))
		}
	}
}

// MCPToolErrorsBlock is [MCPErrorsBlock] for the MCP tool named tool: the
// same "## Errors" block, followed, when the tool declares fallbacks in r
// ([toolerr.Registry.DeclareFallbacks]), by a list of them,
//
//	Fallback tools (offered as use_fallback:<tool> in actions):
//	- geocode_backup: after transient, rate_limit or upstream failures.
//	- queue_geocode (mutates): after transient failures.
//
// so that the model knows a tool's backups before it fails. Without
// fallbacks it returns exactly what MCPErrorsBlock(r, codes...) returns; with
// fallbacks and no code registered, the block holds the heading and the
// fallbacks. The block ends with a newline.
func MCPToolErrorsBlock(r *toolerr.Registry, tool string, codes ...string) string {
	r = orDefault(r)
	block := MCPErrorsBlock(r, codes...)
	fbs := r.Fallbacks(tool)
	if len(fbs) == 0 {
		return block
	}
	var b strings.Builder
	if block == "" {
		block = "## Errors\n"
	}
	b.WriteString(block)
	b.WriteString("Fallback tools (offered as use_fallback:<tool> in actions):\n")
	for _, fb := range fbs {
		b.WriteString("- ")
		b.WriteString(fb.Tool)
		if fb.Mutates {
			b.WriteString(" (mutates)")
		}
		b.WriteString(": after ")
		for i, c := range fb.On {
			switch {
			case i == 0:
			case i == len(fb.On)-1:
				b.WriteString(" or ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(string(c))
		}
		b.WriteString(" failures.\n")
	}
	return b.String()
}

// categoryList renders categories as a comma-separated list of code spans.
func categoryList(cs []toolerr.Category) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = "`" + string(c) + "`"
	}
	return strings.Join(parts, ", ")
}
