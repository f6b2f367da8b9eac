package errdocs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolerr/toolerr"
)

// ExampleRequestID is the placeholder request id of the example payloads in
// the generated documentation ([Markdown], [OpenAPI]).
const ExampleRequestID = "req_example"

// Markdown renders the codes of r, its parents' included, as one Markdown
// document: an index table, then one section per code grouped by category
// in taxonomy order ([toolerr.Categories]) and sorted by code within a
// category.
//
// A section is headed by the code (so that "#code_in_lower_case" links to
// it) and holds the title; category, severity, status, retryability with
// the retry policy, stability, actions and docs URL; the cause; the repair
// steps; the hints for the model and for the user; an example payload (the
// problem+json rendering of the code with [ExampleRequestID], pretty-printed
// in a json block); and the related codes. A deprecated code also names its
// replacement and removal date, at the top of its section.
//
// The output depends only on the definitions, so it can be generated and
// committed (see examples/errdocs) and checked for drift in CI.
//
// When tools declare fallbacks ([toolerr.Registry.DeclareFallbacks]) a last
// section, "Fallback tools", lists them in a table: the tool, the
// fallback, the categories it covers and whether it mutates. A registry
// without fallbacks renders no such section.
func Markdown(r *toolerr.Registry) []byte {
	r = orDefault(r)
	defs := docDefs(r)
	var b bytes.Buffer
	b.WriteString("# Error codes\n\n")
	fmt.Fprintf(&b, "%d codes, by category, then by code. Every error is rendered as an RFC 9457 problem "+
		"(`application/problem+json`) carrying the members shown in each example.\n\n", len(defs))
	b.WriteString("| Code | Category | Status | Retryable | Title |\n|---|---|---|---|---|\n")
	for _, d := range defs {
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %d | %s | %s |\n",
			d.Code, anchor(d.Code), d.Category, d.Status, yesNo(d.Retryable), tableCell(d.Title))
	}
	var category toolerr.Category
	for _, d := range defs {
		if d.Category != category {
			category = d.Category
			fmt.Fprintf(&b, "\n## Category: %s\n", category)
		}
		writeSection(&b, r, d)
	}
	writeFallbacks(&b, r) // fallbacks.go
	return b.Bytes()
}

// writeSection writes the section of one code of r.
func writeSection(b *bytes.Buffer, r *toolerr.Registry, d toolerr.Def) {
	fmt.Fprintf(b, "\n### %s\n\n*%s*\n\n", d.Code, strings.ReplaceAll(oneLine(d.Title), "*", `\*`))
	if d.Stability == toolerr.Deprecated {
		fmt.Fprintf(b, "> **Deprecated.** Use %s instead. This code is removed on %s.\n\n",
			codeLink(r, d.Replacement), d.Removal)
	}
	fmt.Fprintf(b, "- Category: `%s`\n- Severity: `%s`\n- Status: %d\n- Retryable: %s\n- Stability: %s\n",
		d.Category, d.Severity, d.Status, retryDescription(d), d.Stability)
	if len(d.Actions) > 0 {
		fmt.Fprintf(b, "- Actions: `%s`\n", strings.Join(d.Actions, "`, `"))
	}
	if docs := renderedMembersOf(exampleError(r, d)).DocsURL; docs != "" {
		fmt.Fprintf(b, "- Docs: <%s>\n", docs)
	}

	b.WriteString("\n**Cause.** ")
	b.WriteString(orNone(oneLine(d.Cause), "Not documented."))
	b.WriteString("\n\n**Repair.**")
	if len(d.Repair) == 0 {
		b.WriteString(" Follow the hint.\n")
	} else {
		b.WriteString("\n\n")
		for i, step := range d.Repair {
			fmt.Fprintf(b, "%d. %s\n", i+1, oneLine(step))
		}
	}
	fmt.Fprintf(b, "\n**Hint for the model.** %s\n\n**Hint for the user.** %s\n",
		oneLine(d.Hint), oneLine(d.HumanHint))

	b.WriteString("\n**Example.**\n\n")
	writeFenced(b, "json", examplePayload(r, d))

	b.WriteString("\n**Related codes.** ")
	if len(d.Related) == 0 {
		b.WriteString("None.\n")
		return
	}
	for i, code := range d.Related {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(codeLink(r, code))
	}
	b.WriteString("\n")
}

// orDefault returns r, or the default registry for nil.
func orDefault(r *toolerr.Registry) *toolerr.Registry {
	if r == nil {
		return toolerr.Default()
	}
	return r
}

// docDefs returns the definitions of r in documentation order: by category
// in taxonomy order, then by code.
func docDefs(r *toolerr.Registry) []toolerr.Def {
	defs := r.Defs()
	order := toolerr.Categories()
	slices.SortStableFunc(defs, func(a, b toolerr.Def) int {
		// Defs is sorted by code already; a stable sort by category keeps that.
		return slices.Index(order, a.Category) - slices.Index(order, b.Category)
	})
	return defs
}

// exampleError builds the error of d as r renders it, with
// [ExampleRequestID]. VALIDATION_FAILED is shown as argcheck builds it
// from a tool's schema: two violations, the most actionable one repeated at
// the top level, and example_request.
func exampleError(r *toolerr.Registry, d toolerr.Def) *toolerr.Error {
	e := r.New(d.Code, "").WithRequestID(ExampleRequestID)
	if d.Code != toolerr.CodeValidationFailed {
		return e
	}
	limit := toolerr.Violation{Field: "/limit", Reason: "must be at most 100",
		AllowedValues: toolerr.Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100}
	status := toolerr.Violation{Field: "/status", Reason: "must be one of the allowed values",
		AllowedValues: []string{"open", "shipped", "cancelled"}, SuggestedValue: "shipped"}
	return e.WithDetail("The arguments break the tool's schema in 2 places.").
		WithField(limit.Field).WithAllowedValues(limit.AllowedValues).WithSuggestedValue(limit.SuggestedValue).
		WithViolations(limit, status).
		WithExampleRequest(map[string]any{"limit": 100, "status": "shipped"}).
		WithHint("Set limit between 1 and 100 and status to \"shipped\", or call again with example_request.")
}

// examplePayload is the problem+json rendering of d's example error,
// indented by two spaces.
func examplePayload(r *toolerr.Registry, d toolerr.Def) []byte {
	raw := exampleError(r, d).AppendJSON(nil)
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		// AppendJSON always writes valid JSON; keep the compact form if not.
		return raw
	}
	return out.Bytes()
}

// renderedMembers holds the members of an error's rendering that the
// exports link or reference: the docs URL, present only when it is an
// absolute http(s) URL, and the delay, present whenever the error carries
// one (a retryable rate limit always does).
type renderedMembers struct {
	DocsURL      string          `json:"docs_url"`
	RetryAfterMS json.RawMessage `json:"retry_after_ms"`
}

// renderedMembersOf returns the members of e's problem+json rendering
// the exports read.
func renderedMembersOf(e *toolerr.Error) renderedMembers {
	var m renderedMembers
	// AppendJSON always writes valid JSON; an error would leave m empty.
	_ = json.Unmarshal(e.AppendJSON(nil), &m)
	return m
}

// codeLink links a registered code to its section; an unknown code is
// written as code only.
func codeLink(r *toolerr.Registry, code string) string {
	if _, ok := r.Lookup(code); ok {
		return fmt.Sprintf("[%s](#%s)", code, anchor(code))
	}
	return "`" + oneLine(code) + "`"
}

// retryDescription says whether and how a code may be retried.
func retryDescription(d toolerr.Def) string {
	if !d.Retryable {
		return "no"
	}
	p := d.Retry
	var s string
	switch p.Strategy {
	case toolerr.StrategyRetryAfter:
		s = fmt.Sprintf("yes, after `retry_after_ms` (%s when absent), at most %d attempts", p.BaseDelay, p.MaxAttempts)
	default:
		s = fmt.Sprintf("yes, with exponential backoff from %s, at most %d attempts", p.BaseDelay, p.MaxAttempts)
	}
	if p.IdempotencyRequired {
		s += ", only with an idempotency key"
	}
	return s
}

// writeFenced writes body as a fenced code block whose fence is longer than
// any run of backticks in body, so the block cannot end early.
func writeFenced(b *bytes.Buffer, lang string, body []byte) {
	longest, run := 0, 0
	for _, c := range body {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	fmt.Fprintf(b, "%s%s\n%s\n%s\n", fence, lang, bytes.TrimRight(body, "\n"), fence)
}

// anchor is the heading anchor GitHub and most renderers derive from a
// SCREAMING_SNAKE heading.
func anchor(code string) string { return strings.ToLower(code) }

// oneLine collapses runs of white space, line breaks included, into single
// spaces, so that registered text cannot break the Markdown structure.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tableCell makes s safe inside a Markdown table cell.
func tableCell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// orNone returns s, or none when s is empty.
func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// yesNo renders a boolean for people.
func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
