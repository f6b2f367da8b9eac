package toolerr

import "slices"

// Members is a set of the optional members an error can carry that a hint
// may point at. A code's hint must never send the model to a member the
// error lacks, so a [Def] can word its hint per set of members present (see
// [Wording]).
type Members uint16

// The members a [Wording] can depend on.
const (
	// MemberField: field is present.
	MemberField Members = 1 << iota
	// MemberAllowedValues: allowed_values is present.
	MemberAllowedValues
	// MemberSuggestedValue: suggested_value is present.
	MemberSuggestedValue
	// MemberRetryAfter: retry_after_ms is present.
	MemberRetryAfter
	// MemberErrors: errors (per-item errors of a batch) is present.
	MemberErrors
	// MemberDetails: details is present.
	MemberDetails
	// MemberIntent: intent is present.
	MemberIntent
	// MemberViolations: violations (argument violations) is present.
	MemberViolations
	// MemberExampleRequest: example_request is present.
	MemberExampleRequest
)

// memberNames are the wire names of the members, in bit order; tests use
// them to check that no hint names a member its error lacks.
var memberNames = [...]string{"field", "allowed_values", "suggested_value", "retry_after_ms", "errors", "details", "intent", "violations", "example_request"}

// MemberNames returns the wire names of the members in m, in the order of
// the Member… constants.
func (m Members) MemberNames() []string {
	var out []string
	for i, name := range memberNames {
		if m&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// Wording is a code's hint, human hint and repair steps for errors that
// carry at least the members in When. A [Def]'s own Hint, HumanHint and
// Repair are the wording for an error that carries none of them, and must
// be actionable with nothing but the code and detail; its Wordings are
// tried in order, most specific first, and the first whose members are all
// present wins. An empty HumanHint or nil Repair keeps the Def's own.
type Wording struct {
	// When lists the members an error must all carry for this wording.
	When Members
	// Hint is the imperative next step for the model. Required.
	Hint string
	// HumanHint is a sentence safe to show the end user; empty keeps the Def's.
	HumanHint string
	// Repair lists the repair steps; nil keeps the Def's.
	Repair []string
}

// Carried returns the members of the set that e carries, as they render:
// retry_after_ms counts when a delay is rendered, field when non-empty,
// the values when non-nil, errors and details when non-empty.
func (e *Error) Carried() Members {
	if e == nil {
		return 0
	}
	var m Members
	if e.Field != "" {
		m |= MemberField
	}
	if e.AllowedValues != nil {
		m |= MemberAllowedValues
	}
	if e.SuggestedValue != nil {
		m |= MemberSuggestedValue
	}
	if e.renderedRetryAfter() > 0 {
		m |= MemberRetryAfter
	}
	if len(e.Errors) > 0 {
		m |= MemberErrors
	}
	if len(e.Details) > 0 {
		m |= MemberDetails
	}
	if e.Intent != nil {
		m |= MemberIntent
	}
	if len(e.Violations) > 0 {
		m |= MemberViolations
	}
	if e.ExampleRequest != nil {
		m |= MemberExampleRequest
	}
	return m
}

// RenderedHints returns the hint, human hint and suggestions that e
// renders. Texts set with WithHint, WithHumanHint or WithSuggestions are
// returned as set; texts still equal to the code's defaults are worded for
// the members e carries (see [Wording]), so a hint never points at a member
// that is absent. Errors parsed from the wire keep the texts they carried.
func (e *Error) RenderedHints() (hint, humanHint string, suggestions []string) {
	if e == nil {
		return "", "", nil
	}
	hint, humanHint, suggestions = e.Hint, e.HumanHint, e.Suggestions
	d := e.def
	if d == nil || len(d.Wordings) == 0 {
		return hint, humanHint, suggestions
	}
	w, ok := d.wordingFor(e.Carried())
	if !ok {
		return hint, humanHint, suggestions
	}
	if hint == d.Hint {
		hint = w.Hint
	}
	if humanHint == d.HumanHint && w.HumanHint != "" {
		humanHint = w.HumanHint
	}
	if w.Repair != nil && slices.Equal(suggestions, d.Repair) {
		suggestions = w.Repair
	}
	return hint, humanHint, suggestions
}

// wordingFor returns the first wording whose members are all in carried.
func (d *Def) wordingFor(carried Members) (Wording, bool) {
	for _, w := range d.Wordings {
		if w.When&^carried == 0 {
			return w, true
		}
	}
	return Wording{}, false
}
