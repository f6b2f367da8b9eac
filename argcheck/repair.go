package argcheck

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// maxTrials bounds the validations spent checking suggestions of one call,
// so a call with many violations costs a bounded amount.
const maxTrials = 64

// repairer derives and checks the suggestions of one call's findings.
type repairer struct {
	s      *Schema
	args   any             // the arguments as sent; never modified
	before map[string]bool // the fields failing as sent
	trials int
}

// suggest sets the suggestion of every finding that has one that works:
// with it in place, nothing fails at the finding's field and nothing that
// passed fails.
func (r *repairer) suggest(fs []finding) {
	for i := range fs {
		f := &fs[i]
		for _, c := range r.candidates(f) {
			if r.trials >= maxTrials {
				return
			}
			if r.works(f, c) {
				f.suggestion, f.has = c, true
				break
			}
		}
	}
}

// coverRenames gives a missing property the value of the misspelt
// property whose suggestion renames it into place: the rename repairs
// both, so the missing one is marked covered and not applied on its own.
func coverRenames(fs []finding, args any) {
	for i := range fs {
		f := &fs[i]
		if !f.renameFrom || !f.has {
			continue
		}
		target := siblingOf(f.field, f.suggestion.(string))
		for j := range fs {
			g := &fs[j]
			if g.field == target && g.keyword == "required" && !g.has {
				v, _ := lookup(args, f.field)
				g.suggestion, g.has, g.covered = v, true, true
			}
		}
	}
}

// works applies c for f to a copy of the arguments and validates it.
func (r *repairer) works(f *finding, c any) bool {
	r.trials++
	doc, ok := apply(deepCopy(r.args), f, c)
	if !ok {
		return false
	}
	after := failingFields(r.s.compiled.Validate(doc))
	target := f.field
	if f.renameFrom {
		target = siblingOf(f.field, c.(string))
	}
	for field := range after {
		if field == f.field || field == target || !r.before[field] {
			return false
		}
	}
	return true
}

// apply puts c in place for f in doc (a copy): the new value at f.field,
// or, for a property the schema does not allow, the property renamed to c.
// It returns the document, which is new when f.field is the root.
func apply(doc any, f *finding, c any) (any, bool) {
	if f.renameFrom {
		to, _ := c.(string)
		_, last, _ := parentOf(doc, f.field)
		return doc, to != "" && rename(doc, f.field, to) && last != to
	}
	if f.field == "" {
		return c, true
	}
	return doc, set(doc, f.field, c)
}

// exampleRequest returns the arguments with every suggestion applied, when
// every finding has one and the result validates. Repairs that interact
// (a clamp that breaks a multipleOf) get two more rounds, each deriving
// suggestions from the previous round's result.
func (r *repairer) exampleRequest(fs []finding) (any, bool) {
	doc := deepCopy(r.args)
	for round := 0; round < 3; round++ {
		for i := range fs {
			if !fs[i].has {
				return nil, false
			}
		}
		// Values first, renames last: a value's pointer may go through a
		// property that is about to be renamed.
		for _, renames := range []bool{false, true} {
			for i := range fs {
				if fs[i].renameFrom != renames || fs[i].covered {
					continue
				}
				var ok bool
				if doc, ok = apply(doc, &fs[i], deepCopy(fs[i].suggestion)); !ok {
					return nil, false
				}
			}
		}
		err := r.s.compiled.Validate(doc)
		if err == nil {
			return doc, true
		}
		verr, ok := err.(*validator.ValidationError)
		if !ok {
			return nil, false
		}
		next := &repairer{s: r.s, args: doc, before: failingFields(err), trials: r.trials}
		fs = r.s.findings(verr, doc)
		next.suggest(fs)
		coverRenames(fs, doc)
		r.trials = next.trials
		doc = deepCopy(doc)
	}
	return nil, false
}

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
		if name, ok := nearestString(last, free); ok {
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

// failingFields returns the pointers at which err reports a violation,
// missing and extra properties at their own pointers.
func failingFields(err error) map[string]bool {
	out := map[string]bool{}
	verr, ok := err.(*validator.ValidationError)
	if !ok {
		if err != nil {
			out[""] = true
		}
		return out
	}
	var walk func(e *validator.ValidationError)
	walk = func(e *validator.ValidationError) {
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) > 0 {
			return
		}
		loc := joinPointer(e.InstanceLocation)
		names, ok := namedChildren(e.ErrorKind)
		if !ok {
			out[loc] = true
		}
		for _, name := range names {
			out[child(loc, name)] = true
		}
	}
	walk(verr)
	return out
}

// namedChildren returns the properties an object-level error is about,
// which are violations at their own pointers: the missing ones of
// required, dependentRequired and dependencies, the extra ones of
// additionalProperties. ok is false for any other kind.
func namedChildren(k validator.ErrorKind) (names []string, ok bool) {
	switch k := k.(type) {
	case *kind.Required:
		return k.Missing, true
	case *kind.DependentRequired:
		return k.Missing, true
	case *kind.Dependency:
		return k.Missing, true
	case *kind.AdditionalProperties:
		return k.Properties, true
	}
	return nil, false
}

// siblingOf is the pointer of the member name next to the one at p.
func siblingOf(p, name string) string {
	tokens := splitPointer(p)
	if len(tokens) == 0 {
		return p
	}
	return joinPointer(append(tokens[:len(tokens)-1:len(tokens)-1], name))
}
