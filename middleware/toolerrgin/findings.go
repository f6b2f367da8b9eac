package toolerrgin

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// finding is one violation as it is worked out: what the client sees
// (field, reason, allowed values, suggestion) and what the hint and the
// repairs need.
type finding struct {
	field   string // JSON pointer
	steps   []step // to the value in the bound arguments; nil when unknown
	tag     string // the validator tag that failed
	reason  string // declarative: "must be at most 100"
	fix     string // imperative, without the suggestion: "set status to one of open, closed"
	allowed any
	// suggestion is the repaired value, valid only when has is set.
	suggestion any
	has        bool
	// askUser: only the user can give the value (a required field, a
	// string too short).
	askUser bool
}

// rankFindings orders findings by how actionable they are: a repair
// first, then what the model can fix from allowed_values, then what only
// the user can give; by field within each.
func rankFindings(fs []finding) {
	slices.SortStableFunc(fs, func(a, b finding) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a.field, b.field)
	})
}

// rank is a finding's place in rankFindings' order.
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
	if len(fs) == 1 {
		return sentence(fs[0].field, fs[0].reason+".")
	}
	fields := map[string]bool{}
	for _, f := range fs {
		fields[f.field] = true
	}
	if len(fields) == 1 {
		return sentence(fs[0].field, fmt.Sprintf("breaks %d rules.", len(fs)))
	}
	return fmt.Sprintf("%d arguments are invalid.", len(fields))
}

// sentence is "<field> <rest>", capitalized only when it starts with
// "the arguments": a field's name is the client's, kept as it is.
func sentence(field, rest string) string {
	s := displayName(field) + " " + rest
	if field == "" {
		return capitalize(s)
	}
	return s
}

// hint is the imperative repair: the fixes of the first few fields, with
// their suggestions, then every value to ask the user for.
func hint(fs []finding, hasExample bool) string {
	const shown = 3
	var fixes, ask []string
	done := map[string]bool{}
	hidden := 0
	for _, f := range fs {
		if done[f.field] {
			continue
		}
		done[f.field] = true
		switch {
		case f.askUser && !f.has:
			ask = append(ask, displayName(f.field))
		case len(fixes) == shown:
			hidden++
		case f.has:
			fixes = append(fixes, "set "+displayName(f.field)+" to "+jsonText(f.suggestion))
		default:
			fixes = append(fixes, f.fix)
		}
	}
	if len(ask) > 0 {
		fixes = append(fixes, "ask the user for "+strings.Join(ask, " and "))
	}
	text := capitalize(strings.Join(fixes, "; ")) + "."
	if hidden > 0 {
		text += fmt.Sprintf(" Fix the other %d listed in violations.", hidden)
	}
	if hasExample {
		return text + " example_request applies every fix: send it if it still means what the user asked."
	}
	return text + " Then call again."
}

// jsonText is v as JSON text, for hints.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
