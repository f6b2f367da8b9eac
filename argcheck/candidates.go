package argcheck

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
)

// The candidate repairs of each kind of violation. A candidate is only a
// guess: the repairer suggests it when, put in place, it works.

// candidates returns values that might repair f, best first; each is
// checked by works before it is suggested.
func (r *repairer) candidates(f *finding) []any {
	if noRepair(f.node) {
		return nil
	}
	switch f.keyword {
	case "required", "dependentRequired", "dependencies":
		if d, ok := f.node["default"]; ok {
			return []any{d}
		}
		if c, ok := f.node["const"]; ok {
			return []any{c}
		}
		if e, ok := f.node["enum"].([]any); ok && len(e) == 1 {
			return []any{e[0]}
		}
	case "additionalProperties":
		names, _ := f.allowed.([]string)
		parent, _, _ := parentOf(r.args, f.field)
		obj, _ := parent.(map[string]any)
		free := slices.DeleteFunc(slices.Clone(names), func(n string) bool { _, taken := obj[n]; return taken })
		_, last, _ := parentOf(r.args, f.field)
		if name, ok := renameTarget(last, free, func(p string) map[string]any { return r.s.property(f.object, p) }); ok {
			return []any{name}
		}
		if name, ok := patternPropertyName(last, f.object, r.rewrites); ok {
			return []any{name}
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		// A number out of range is what the user asked for; the nearest
		// allowed one is another request (a shorter meeting, fewer
		// tickets), unless the schema says the server caps it anyway.
		if x, ok := toRat(f.got); ok && declaresCap(f.node) {
			b := boundsOf(f.node)
			if _, hi := b.upper(); hi != nil && x.Cmp(hi) >= 0 {
				if y, ok := b.clamp(x); ok {
					return []any{ratNumber(y)}
				}
			}
		}
	case "enum":
		members, _ := f.allowed.([]any)
		if m, ok := nearestMember(f.got, members); ok {
			return []any{m}
		}
	case "const":
		if c, ok := f.node["const"]; ok {
			return []any{c}
		}
	case "minLength":
		if d, ok := f.node["default"]; ok {
			return []any{d}
		}
	case "pattern", "format":
		if s, ok := f.got.(string); ok {
			format, _ := f.node["format"].(string)
			pattern, _ := f.node["pattern"].(string)
			return stringCandidates(s, format, pattern, namesAccount(f.field), r.rewrites)
		}
	case "type":
		want, _ := f.allowed.(map[string]any)
		if minorUnitGuess(f) {
			return nil
		}
		return coercions(f.got, want["type"])
	case "uniqueItems":
		if a, ok := f.got.([]any); ok {
			if b := withoutRepeats(a); !countedBySibling(r.args, f.field, len(a), len(b)) {
				return []any{b}
			}
		}
	}
	return nil
}

// stringCandidates are rewrites of s that keep what it says: a date in
// the format, then s trimmed; for e-mail addresses without "mailto:", for
// UUIDs without braces and with hyphens; then the one rewrite of its
// separators and case that the pattern accepts, or without a pattern, s
// in lower or upper case. account says the value names an account, whose
// words are never joined by a separator the pattern only lists in a
// class. budget bounds the pattern matches of the whole call.
func stringCandidates(s, format, pattern string, account bool, budget *int) []any {
	var out []any
	add := func(c string) {
		if c != s && c != "" && !slices.Contains(out, any(c)) {
			out = append(out, c)
		}
	}
	if d, ok := rewriteDate(s, format); ok {
		add(d)
	}
	t := strings.TrimSpace(s)
	add(t)
	switch format {
	case "email":
		add(strings.TrimPrefix(t, "mailto:"))
	case "uuid":
		u := strings.ToLower(strings.Trim(strings.TrimPrefix(t, "urn:uuid:"), "{}"))
		if len(u) == 32 {
			u = u[:8] + "-" + u[8:12] + "-" + u[12:16] + "-" + u[16:20] + "-" + u[20:]
		}
		add(u)
	}
	if pattern == "" {
		add(strings.ToLower(t))
		add(strings.ToUpper(t))
		return out
	}
	if re, err := regexp.Compile(pattern); err == nil {
		if c, ok := patternRewrite(s, re, account, budget); ok {
			add(c)
		}
	}
	return out
}

// coercions are lossless conversions of got to the wanted type: a numeric
// string to a number, "true"/"false" to a boolean, a number or boolean to
// its text, a JSON text to the object or array it encodes, one value to
// the list of it.
func coercions(got any, want any) []any {
	var types []string
	switch w := want.(type) {
	case string:
		types = []string{w}
	case []string:
		types = w
	}
	var out []any
	for _, t := range types {
		switch g := got.(type) {
		case string:
			v, _ := decodeJSONText(strings.TrimSpace(g))
			switch v.(type) {
			case json.Number:
				if t == "number" || t == "integer" {
					out = append(out, v)
				}
			case bool:
				if t == "boolean" {
					out = append(out, v)
				}
			case map[string]any:
				if t == "object" {
					out = append(out, v)
				}
			case []any:
				if t == "array" {
					out = append(out, v)
				}
			}
		case json.Number, float64, bool:
			if t == "string" {
				out = append(out, jsonText(g))
			}
		}
		if _, isArray := got.([]any); t == "array" && !isArray && got != nil {
			out = append(out, []any{got}) // one item where a list is wanted
		}
	}
	return out
}

// decodeJSONText decodes s as one JSON value, numbers as json.Number;
// "True" and "FALSE" count as booleans.
func decodeJSONText(s string) (any, bool) {
	if strings.EqualFold(s, "true") || strings.EqualFold(s, "false") {
		return strings.EqualFold(s, "true"), true
	}
	v, err := validator.UnmarshalJSON(bytes.NewReader([]byte(s)))
	return v, err == nil
}

// withoutRepeats returns a without the items equal to an earlier one.
func withoutRepeats(a []any) []any {
	seen := make(map[string]bool, len(a))
	out := make([]any, 0, len(a))
	for _, x := range a {
		k := jsonText(x)
		if !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// minorUnits are words that name an amount in a currency's minor unit.
var minorUnits = []string{"cents", "cent", "pence", "penny", "satoshi", "satoshis"}

// minorUnitGuess reports whether f is a string with a decimal point sent
// for an integer amount in a minor unit ("250.00" for bonus_cents): the
// sender may have meant 250 units or 250.00 in the major unit, so only
// the user can say. The unit is a word of the property's name, title or
// description ("discount_percent" is not in cents).
func minorUnitGuess(f *finding) bool {
	s, ok := f.got.(string)
	if !ok || !strings.Contains(s, ".") {
		return false
	}
	d, _ := f.node["description"].(string)
	title, _ := f.node["title"].(string)
	last := f.field[strings.LastIndexByte(f.field, '/')+1:]
	text := last + " " + title + " " + d
	if strings.Contains(strings.ToLower(text), "minor unit") {
		return true
	}
	for _, w := range nameWordsOf(text) {
		if slices.Contains(minorUnits, w) {
			return true
		}
	}
	return false
}

// countedBySibling reports whether dropping the repeats of the array at
// field (from n items to m) would break a count the caller gave beside
// it: a sibling named as a count, equal to n ("seats": ["F12", "F12"] with
// "quantity": 2 means a second seat is missing, not repeated).
func countedBySibling(args any, field string, n, m int) bool {
	if n == m {
		return false
	}
	parent, last, ok := parentOf(args, field)
	obj, isObject := parent.(map[string]any)
	if !ok || !isObject {
		return false
	}
	for name, v := range obj {
		if name == last || !namesCount(name) {
			continue
		}
		if x, ok := toRat(v); ok && x.IsInt() && x.Num().IsInt64() && x.Num().Int64() == int64(n) {
			return true
		}
	}
	return false
}

// patternPropertyName returns the one rewrite of name's separators and
// case that a patternProperties pattern of object accepts ("log_level"
// for ^[A-Z][A-Z0-9_]*$ is "LOG_LEVEL"), or false when none or several do.
func patternPropertyName(name string, object map[string]any, budget *int) (string, bool) {
	patterns, _ := object["patternProperties"].(map[string]any)
	found := ""
	for p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			continue
		}
		if c, ok := patternRewrite(name, re, false, budget); ok && c != name {
			if found != "" && found != c {
				return "", false
			}
			found = c
		}
	}
	return found, found != ""
}

// countWords are the words of a property name that counts things.
var countWords = []string{"quantity", "qty", "count", "number", "num", "total", "size"}

// namesCount reports whether a property's name says it counts things:
// "quantity", "seat_count", "numberOfSeats".
func namesCount(name string) bool {
	for _, w := range nameWordsOf(name) {
		if slices.Contains(countWords, w) {
			return true
		}
	}
	return false
}

// accountWords are the words of a property name that holds an account:
// there, "octo cat" may be the login octocat or octo-cat, two people.
var accountWords = []string{"user", "username", "login", "handle", "account", "assignee", "assignees",
	"reviewer", "reviewers", "owner", "owners", "member", "members", "recipient", "recipients", "email", "emails"}

// namesAccount reports whether the value at pointer field, by the name of
// its property (or of the array holding it), holds an account.
func namesAccount(field string) bool {
	tokens := splitPointer(field)
	for i := len(tokens) - 1; i >= 0; i-- {
		if _, err := strconv.Atoi(tokens[i]); err == nil {
			continue // an array index: the array's name says what it holds
		}
		for _, w := range nameWordsOf(tokens[i]) {
			if slices.Contains(accountWords, w) {
				return true
			}
		}
		return false
	}
	return false
}
