package toolerr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ExampleRequestID is the placeholder request id of the example payloads in
// the generated documentation ([Registry.Markdown], [Registry.OpenAPI]).
const ExampleRequestID = "req_example"

// Markdown renders the registry's codes, the parents' included, as one
// Markdown document: an index table, then one section per code grouped by
// category in taxonomy order ([Categories]) and sorted by code within a
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
// When tools declare fallbacks ([Registry.DeclareFallbacks]) a last
// section, "Fallback tools", lists them in a table: the tool, the
// fallback, the categories it covers and whether it mutates. A registry
// without fallbacks renders no such section.
func (r *Registry) Markdown() []byte {
	defs := r.docDefs()
	var b bytes.Buffer
	b.WriteString("# Error codes\n\n")
	fmt.Fprintf(&b, "%d codes, by category, then by code. Every error is rendered as an RFC 9457 problem "+
		"(`application/problem+json`) carrying the members shown in each example.\n\n", len(defs))
	b.WriteString("| Code | Category | Status | Retryable | Title |\n|---|---|---|---|---|\n")
	for _, d := range defs {
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %d | %s | %s |\n",
			d.Code, anchor(d.Code), d.Category, d.Status, yesNo(d.Retryable), tableCell(d.Title))
	}
	var category Category
	for _, d := range defs {
		if d.Category != category {
			category = d.Category
			fmt.Fprintf(&b, "\n## Category: %s\n", category)
		}
		r.writeSection(&b, d)
	}
	r.writeFallbacks(&b) // export_fallbacks.go
	return b.Bytes()
}

// writeSection writes the section of one code.
func (r *Registry) writeSection(b *bytes.Buffer, d Def) {
	fmt.Fprintf(b, "\n### %s\n\n*%s*\n\n", d.Code, strings.ReplaceAll(oneLine(d.Title), "*", `\*`))
	if d.Stability == Deprecated {
		fmt.Fprintf(b, "> **Deprecated.** Use %s instead. This code is removed on %s.\n\n",
			r.codeLink(d.Replacement), d.Removal)
	}
	fmt.Fprintf(b, "- Category: `%s`\n- Severity: `%s`\n- Status: %d\n- Retryable: %s\n- Stability: %s\n",
		d.Category, d.Severity, d.Status, retryDescription(d), d.Stability)
	if len(d.Actions) > 0 {
		fmt.Fprintf(b, "- Actions: `%s`\n", strings.Join(d.Actions, "`, `"))
	}
	if e := r.exampleError(d); isHTTPURL(e.DocsURL) {
		fmt.Fprintf(b, "- Docs: <%s>\n", e.DocsURL)
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
	writeFenced(b, "json", r.examplePayload(d))

	b.WriteString("\n**Related codes.** ")
	if len(d.Related) == 0 {
		b.WriteString("None.\n")
		return
	}
	for i, code := range d.Related {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(r.codeLink(code))
	}
	b.WriteString("\n")
}

// docDefs returns the definitions in documentation order: by category in
// taxonomy order, then by code.
func (r *Registry) docDefs() []Def {
	defs := r.Defs()
	order := Categories()
	slices.SortStableFunc(defs, func(a, b Def) int {
		// Defs is sorted by code already; a stable sort by category keeps that.
		return slices.Index(order, a.Category) - slices.Index(order, b.Category)
	})
	return defs
}

// exampleError builds the error of d as this registry renders it, with
// [ExampleRequestID]. VALIDATION_FAILED is shown as argcheck builds it
// from a tool's schema: two violations, the most actionable one repeated at
// the top level, and example_request.
func (r *Registry) exampleError(d Def) *Error {
	e := r.New(d.Code, "").WithRequestID(ExampleRequestID)
	if d.Code != CodeValidationFailed {
		return e
	}
	limit := Violation{Field: "/limit", Reason: "must be at most 100",
		AllowedValues: Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100}
	status := Violation{Field: "/status", Reason: "must be one of the allowed values",
		AllowedValues: []string{"open", "shipped", "cancelled"}, SuggestedValue: "shipped"}
	return e.WithDetail("The arguments break the tool's schema in 2 places.").
		WithField(limit.Field).WithAllowedValues(limit.AllowedValues).WithSuggestedValue(limit.SuggestedValue).
		WithViolations(limit, status).
		WithExampleRequest(map[string]any{"limit": 100, "status": "shipped"}).
		WithHint("Set limit between 1 and 100 and status to \"shipped\", or call again with example_request.")
}

// examplePayload is the problem+json rendering of d's example error,
// indented by two spaces.
func (r *Registry) examplePayload(d Def) []byte {
	raw := r.exampleError(d).AppendJSON(nil)
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		// AppendJSON always writes valid JSON; keep the compact form if not.
		return raw
	}
	return out.Bytes()
}

// codeLink links a registered code to its section; an unknown code is
// written as code only.
func (r *Registry) codeLink(code string) string {
	if _, ok := r.lookup(code); ok {
		return fmt.Sprintf("[%s](#%s)", code, anchor(code))
	}
	return "`" + oneLine(code) + "`"
}

// retryDescription says whether and how a code may be retried.
func retryDescription(d Def) string {
	if !d.Retryable {
		return "no"
	}
	p := d.Retry
	var s string
	switch p.Strategy {
	case StrategyRetryAfter:
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
