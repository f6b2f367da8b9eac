package argcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// What the model is told when a violation has no repair: to ask the user,
// for which value, named as the schema names it to people (its title, or
// a short description), and the choices when there are few. "Set reason
// to one of allowed_values" invites a guess; "Ask the user which reason
// applies: duplicate, fraudulent or requested_by_customer" does not.

// maxChoices is the most choices an ask lists; with more, it points at
// allowed_values.
const maxChoices = 8

// maxTermLen bounds a description used as a value's name for people.
const maxTermLen = 48

// userTerms is how an ask names the value at field: its pointer, and its
// title or short description from node in parentheses: "ship_date (Ship
// date)".
func userTerms(field string, node map[string]any) string {
	name := displayName(field)
	term, _ := node["title"].(string)
	if term == "" {
		// A description's first clause names the value when it is short
		// and says no rule ("At most 8 tickets per order" does not).
		d, _ := node["description"].(string)
		if i := strings.IndexAny(d, ".;:\n"); i >= 0 {
			d = d[:i]
		}
		if !strings.ContainsAny(d, "0123456789") {
			term = d
		}
	}
	term = strings.TrimSpace(term)
	if term == "" || utf8.RuneCountInString(term) > maxTermLen || strings.EqualFold(term, name) {
		return name
	}
	return name + " (" + term + ")"
}

// choiceList writes the choices as "a, b or c", strings bare and other
// values as JSON; ok is false when there are none or more than
// maxChoices.
func choiceList(choices []any) (string, bool) {
	if len(choices) == 0 || len(choices) > maxChoices {
		return "", false
	}
	texts := make([]string, len(choices))
	for i, c := range choices {
		if s, ok := c.(string); ok {
			texts[i] = s
		} else {
			texts[i] = jsonText(c)
		}
	}
	if len(texts) == 1 {
		return texts[0], true
	}
	return strings.Join(texts[:len(texts)-1], ", ") + " or " + texts[len(texts)-1], true
}

// askChoice is the ask for a value that must be one of choices: "ask the
// user which reason applies: duplicate, fraudulent or
// requested_by_customer", or with too many to list, to pick one of
// allowed_values.
func askChoice(terms string, choices []any) string {
	if list, ok := choiceList(choices); ok {
		return "ask the user which " + terms + " applies: " + list
	}
	return "ask the user which " + terms + " applies, one of allowed_values"
}

// askUnknown is the ask for a property the schema does not have and no
// rename fits: the user's value is kept out of the call only with their
// word, so say what the tool takes instead.
func askUnknown(field string, names []string) string {
	out := "ask the user where " + displayName(field) + " belongs, as this tool does not take it"
	if len(names) > 0 && len(names) <= maxChoices {
		choices := make([]any, len(names))
		for i, n := range names {
			choices[i] = n
		}
		list, _ := choiceList(choices)
		out += " (it takes " + strings.Replace(list, " or ", " and ", 1) + ")"
	}
	return out
}

// asks joins the asks of the hint, the plain ones ("ask the user for
// vessel") as one ("ask the user for hours and vessel"): each in full
// while the hint stays within toolerr.MaxHintLen (used bytes are taken
// already), the rest by name, with their choices in violations.
func asks(list []string, names []string, used int) string {
	const plain = "ask the user for "
	var merged, mergedNames []string
	plainAt := -1
	for i, a := range list {
		terms, isPlain := strings.CutPrefix(a, plain)
		if isPlain && !strings.ContainsAny(terms, ",:") && !strings.Contains(terms, " as ") && !strings.Contains(terms, " in the form ") {
			if plainAt >= 0 {
				merged[plainAt] += " and " + terms
				mergedNames[plainAt] += ", " + names[i]
				continue
			}
			plainAt = len(merged)
		}
		merged, mergedNames = append(merged, a), append(mergedNames, names[i])
	}
	if plainAt >= 0 {
		// "a and b and c" reads "a, b and c".
		if n := strings.Count(merged[plainAt], " and "); n > 1 {
			merged[plainAt] = strings.Replace(merged[plainAt], " and ", ", ", n-1)
		}
	}
	room := toolerr.MaxHintLen - used - len(" Then call again.") - 2
	var b strings.Builder
	for i, a := range merged {
		sep := ""
		if i > 0 {
			sep = "; "
		}
		if b.Len()+len(sep)+len(a) <= room {
			b.WriteString(sep + a)
			continue
		}
		rest := plain + strings.Join(mergedNames[i:], ", ") + " (the choices are in violations)"
		if b.Len()+len(sep)+len(rest) > room {
			rest = fmt.Sprintf("ask the user for the other %d values listed in violations", len(merged)-i)
		}
		b.WriteString(sep + rest)
		break
	}
	return b.String()
}
