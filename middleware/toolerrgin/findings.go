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
// their suggestions, then what to ask the user for every value without a
// repair, with the choices when there are at most eight.
func hint(fs []finding, hasExample bool) string {
	const shown = 3
	var fixes, ask, plain []string
	done := map[string]bool{}
	hidden := 0
	for _, f := range fs {
		if done[f.field] {
			continue
		}
		done[f.field] = true
		switch {
		case !f.has:
			if a, ok := askOf(f); ok {
				ask = append(ask, a)
			} else {
				plain = append(plain, displayName(f.field))
			}
		case len(fixes) == shown:
			hidden++
		default:
			fixes = append(fixes, "set "+displayName(f.field)+" to "+jsonText(f.suggestion))
		}
	}
	if len(plain) > 0 {
		fixes = append(fixes, "ask the user for "+strings.Join(plain, " and "))
	}
	fixes = append(fixes, ask...)
	text := capitalize(strings.Join(fixes, "; ")) + "."
	if hidden > 0 {
		text += fmt.Sprintf(" Fix the other %d listed in violations.", hidden)
	}
	if hasExample {
		return text + " example_request applies every fix: send it if it still means what the user asked."
	}
	return text + " Then call again."
}

// maxChoices is the most choices an ask lists.
const maxChoices = 8

// askOf is what to ask the user for f, which has no repair: which of its
// choices applies (at most eight), or for a value that meets its reason;
// false for a value to ask for by name alone (a missing one).
func askOf(f finding) (string, bool) {
	name := displayName(f.field)
	var choices []string
	switch a := f.allowed.(type) {
	case []any:
		for _, c := range a {
			if s, ok := c.(string); ok {
				choices = append(choices, s)
			} else {
				choices = append(choices, jsonText(c))
			}
		}
	case []string:
		choices = a
	}
	if n := len(choices); n > 0 && n <= maxChoices {
		list := choices[0]
		if n > 1 {
			list = strings.Join(choices[:n-1], ", ") + " or " + choices[n-1]
		}
		return "ask the user which " + name + " applies: " + list, true
	}
	if f.reason == "" || f.reason == "is required" {
		return "", false
	}
	return "ask the user for " + name + ", which " + f.reason, true
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
