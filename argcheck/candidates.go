package argcheck

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolerr/toolerr/internal/nearest"
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
		if name, ok := nearest.String(last, free); ok {
			return []any{name}
		}
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		if x, ok := toRat(f.got); ok {
			if y, ok := boundsOf(f.node).clamp(x); ok {
				return []any{ratNumber(y)}
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
	case "maxLength":
		if s, ok := f.got.(string); ok {
			if n, ok := toRat(f.node["maxLength"]); ok && n.IsInt() {
				return []any{truncateRunes(s, int(n.Num().Int64()))}
			}
		}
	case "minLength":
		if d, ok := f.node["default"]; ok {
			return []any{d}
		}
	case "pattern", "format":
		if s, ok := f.got.(string); ok {
			format, _ := f.node["format"].(string)
			return stringCandidates(s, format)
		}
	case "type":
		want, _ := f.allowed.(map[string]any)
		return coercions(f.got, want["type"])
	case "uniqueItems":
		if a, ok := f.got.([]any); ok {
			return []any{withoutRepeats(a)}
		}
	}
	return nil
}

// stringCandidates are rewrites of s that keep what it says: a date in
// the format, then s trimmed, lower-cased, upper-cased, without
// separators, and for UUIDs without braces and with hyphens.
func stringCandidates(s, format string) []any {
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
	add(strings.ToLower(t))
	add(strings.ToUpper(t))
	add(strings.Map(func(r rune) rune {
		if strings.ContainsRune(" -.()/", r) {
			return -1
		}
		return r
	}, t))
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

// truncateRunes cuts s to n code points, as maxLength counts them.
func truncateRunes(s string, n int) string {
	if n < 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}
