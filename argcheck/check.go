package argcheck

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolerr/toolerr"
)

// Check validates args, decoded JSON arguments (as encoding/json decodes
// into any, or validator.UnmarshalJSON with json.Number), against the
// schema. It returns nil when they are valid, and otherwise a
// *toolerr.Error VALIDATION_FAILED that lists every violation (see the
// package doc). args is not modified.
func (s *Schema) Check(args any) error {
	err := s.compiled.Validate(args)
	if err == nil {
		return nil
	}
	verr, ok := err.(*validator.ValidationError)
	if !ok {
		// A Go value JSON cannot hold (a channel, a struct): not
		// arguments a call can carry.
		return s.registry.New(toolerr.CodeValidationFailed, "The arguments are not JSON values.").
			WithField("").WithViolations(toolerr.Violation{Field: "", Reason: "is not a JSON value"}).
			WithHint("Send the arguments as one JSON object.")
	}
	return s.report(verr, args)
}

// CheckJSON decodes raw, one JSON value, and checks it like [Schema.Check].
// Empty or blank raw counts as {}, as MCP's absent arguments do. Invalid
// JSON is VALIDATION_FAILED at the root.
func (s *Schema) CheckJSON(raw []byte) error {
	args, err := decodeArguments(raw)
	if err != nil {
		return s.registry.New(toolerr.CodeValidationFailed, "The arguments are not valid JSON.").
			WithField("").WithViolations(toolerr.Violation{Field: "", Reason: "is not valid JSON"}).
			WithHint("Send the arguments as one valid JSON object, then call again.")
	}
	return s.Check(args)
}

// decodeArguments decodes one JSON value, numbers as json.Number; blank
// input is an empty object.
func decodeArguments(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	return validator.UnmarshalJSON(bytes.NewReader(raw))
}

// report builds the VALIDATION_FAILED of verr for args.
func (s *Schema) report(verr *validator.ValidationError, args any) *toolerr.Error {
	fs := s.findings(verr, args)
	if len(fs) == 0 { // the validator failed with nothing to point at
		fs = []finding{{reason: "does not match the tool's input schema", fix: "correct the arguments against the tool's input schema"}}
	}
	rewrites := maxCallRewrites
	r := &repairer{s: s, args: args, before: s.failingFields(verr, args), rewrites: &rewrites}
	r.suggest(fs)
	coverRenames(fs, args)
	slices.SortStableFunc(fs, func(a, b finding) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a.field, b.field)
	})
	example, hasExample := r.exampleRequest(slices.Clone(fs))
	if hasExample && len(jsonText(example)) > toolerr.MaxObjectLen {
		example, hasExample = nil, false // the rendering would drop it
	}
	for i := range fs {
		// A suggestion the rendering would drop reaches the agent only
		// in example_request; without one, the user is asked.
		if fs[i].has && len(jsonText(fs[i].suggestion)) > toolerr.MaxValueLen && !hasExample {
			fs[i].has, fs[i].suggestion = false, nil
		}
	}
	if hasExample && singleValueFix(fs, args, example) {
		// field and suggested_value already say the whole repair: the
		// arguments repeated would only cost the model tokens.
		example, hasExample = nil, false
	}

	vs := make([]toolerr.Violation, len(fs))
	for i, f := range fs {
		vs[i] = toolerr.Violation{Field: f.field, Reason: f.reason, AllowedValues: f.allowed}
		if f.has {
			vs[i].SuggestedValue = f.suggestion
		}
	}
	top := vs[0]
	e := s.registry.New(toolerr.CodeValidationFailed, detail(fs)).
		WithField(top.Field).WithViolations(vs...).WithHint(hint(fs, hasExample))
	if top.AllowedValues != nil {
		e = e.WithAllowedValues(top.AllowedValues)
	}
	if top.SuggestedValue != nil {
		e = e.WithSuggestedValue(top.SuggestedValue)
	}
	if hasExample {
		e = e.WithExampleRequest(example)
	}
	return e
}

// singleValueFix reports whether field and suggested_value say the
// whole repair: the findings are about one value, not the root, whose
// suggestion is a value (not a property's new name) that the rendering
// keeps, and setting it gives example exactly.
func singleValueFix(fs []finding, args, example any) bool {
	for _, f := range fs {
		if f.field != fs[0].field || f.field == "" || f.renameFrom || f.covered || !f.has {
			return false
		}
	}
	if len(jsonText(fs[0].suggestion)) > toolerr.MaxValueLen {
		return false
	}
	doc := deepCopy(args)
	return set(doc, fs[0].field, fs[0].suggestion) && jsonText(doc) == jsonText(example)
}

// rank orders findings by how actionable they are: a suggestion first,
// then what the model can fix from the schema, then what only the user
// can give.
func rank(f finding) int {
	switch {
	case f.has:
		return 0
	case f.askUser:
		return 2
	}
	return 1
}

// detail is the error's detail: the one violation spelt out, or how many
// arguments are invalid (violations says how).
func detail(fs []finding) string {
	var b strings.Builder
	if len(fs) == 1 {
		fmt.Fprintf(&b, "%s %s.", displayName(fs[0].field), fs[0].reason)
		if fs[0].field == "" {
			return capitalize(b.String())
		}
		return b.String()
	}
	fields := map[string]bool{}
	for _, f := range fs {
		fields[f.field] = true
	}
	if len(fields) == 1 {
		fmt.Fprintf(&b, "%s breaks %d rules of the tool's input schema.", displayName(fs[0].field), len(fs))
		if fs[0].field == "" {
			return capitalize(b.String())
		}
		return b.String()
	}
	// Each violation says what is wrong; the detail only counts them.
	fmt.Fprintf(&b, "%d arguments are invalid.", len(fields))
	return b.String()
}

// hint is the imperative repair: the fixes of the first few fields, each
// with its suggestion, then what to ask the user for every value without
// a repair, then where the rest and the repaired call are.
func hint(fs []finding, hasExample bool) string {
	const shown = 3
	var fixes, ask, askNames []string
	done := map[string]bool{}
	hidden := 0
	for _, f := range fs {
		if done[f.field] || f.covered { // a covered value comes with its rename
			continue
		}
		done[f.field] = true
		switch {
		case !f.has:
			ask = append(ask, cmp.Or(f.ask, "ask the user for "+displayName(f.field)))
			askNames = append(askNames, displayName(f.field))
		case len(fixes) == shown:
			hidden++
		default:
			fixes = append(fixes, fixWith(f))
		}
	}
	text := strings.Join(fixes, "; ")
	if len(ask) > 0 {
		if text != "" {
			text += "; "
		}
		text += asks(ask, askNames, len(text))
	}
	text = capitalize(text) + "."
	if hidden > 0 {
		text += fmt.Sprintf(" Fix the other %d listed in violations.", hidden)
	}
	if hasExample {
		text += " example_request applies every fix: send it if it still means what the user asked."
	} else {
		text += " Then call again."
	}
	return text
}

// fixWith words the fix of f with its suggestion.
func fixWith(f finding) string {
	name := displayName(f.field)
	switch f.keyword {
	case "additionalProperties":
		return fmt.Sprintf("rename %s to %s", name, f.suggestion)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return fmt.Sprintf("%s (nearest: %s)", f.fix, jsonText(f.suggestion))
	case "maxLength", "uniqueItems":
		return f.fix // suggested_value holds the result
	}
	if v := jsonText(f.suggestion); len(v) <= maxHintValueLen {
		return fmt.Sprintf("set %s to %s", name, v)
	}
	// A long value would crowd the hint out of its length limit: the
	// value itself is in suggested_value or example_request.
	return fmt.Sprintf("set %s as suggested_value or example_request shows", name)
}

// maxHintValueLen is the longest suggestion a hint quotes.
const maxHintValueLen = 96

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
