package argcheck

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolerr/toolerr/internal/nearest"
)

// The branch of a oneOf or anyOf the call meant. When a union fails, every
// branch fails with its own errors; reporting all of them (or only "must
// match one of the schemas") leaves the model to guess. When exactly one
// branch fits the value, its errors alone are the violations, and they
// are repaired like any other. When none fits, or two do, the union keeps
// its one violation at its own location and nothing inside it is
// repaired: choosing between branches is the user's call.

// Bounds on choosing a branch by misspelt property names, so that a
// hostile object (thousands of unknown properties) costs little: only an
// object with at most maxMisspelt unknown properties is matched by name.
const (
	maxMisspelt = 16
	// minConstPrefix is the fewest letters a discriminator's value needs
	// to stand for the one const it is a prefix of ("auto" for
	// "automatic").
	minConstPrefix = 3
)

// chosenBranch is the branch of a failed union that the value meant.
type chosenBranch struct {
	// cause is the validator's error of the branch: its leaves are the
	// violations, at absolute instance locations.
	cause *validator.ValidationError
	// renames are the misspelt properties whose nearest names complete
	// the branch's required properties, as findings that rename them.
	renames []finding
}

// unionBranch is one branch of a failed union, as the value is matched
// against it.
type unionBranch struct {
	node  map[string]any // the branch's schema, its $ref followed
	cause *validator.ValidationError
}

// branchOf returns the branch of e, a failed oneOf or anyOf, that the
// value at e's location meant, when exactly one branch fits it. A branch
// fits, in this order:
//
//   - by a discriminator, a property that has a const (or an enum of one
//     member) in at least two branches: the value's property equals the
//     const of one branch; else it equals it but for case and separators,
//     is one small typo from it, or is a prefix of at least three letters
//     of it, and of no other branch's. A value that has the property but
//     fits no branch this way, or several, has no branch: its
//     discriminator says something the schema does not;
//   - else as the only branch whose required properties are all present;
//   - else as the only branch whose required properties are all present
//     once each unknown property is taken for its nearest name (one typo
//     away, or equal but for case and separators); those renames are
//     returned as findings.
//
// args is the instance that was validated.
func (s *Schema) branchOf(e *validator.ValidationError, args any) (chosenBranch, bool) {
	var kw string
	switch e.ErrorKind.(type) {
	case *kind.OneOf:
		kw = "oneOf"
	case *kind.AnyOf:
		kw = "anyOf"
	default:
		return chosenBranch{}, false
	}
	loc := joinPointer(e.InstanceLocation)
	v, _ := lookup(args, loc)
	obj, ok := v.(map[string]any)
	if !ok {
		return chosenBranch{}, false
	}
	branches := s.unionBranches(e, kw)
	if len(branches) < 2 {
		return chosenBranch{}, false
	}
	if i, decided := byDiscriminator(s, branches, obj); decided {
		if i < 0 {
			return chosenBranch{}, false
		}
		return chosenBranch{cause: branches[i].cause}, true
	}
	fits := func(present func(string) bool) []int {
		var out []int
		for i, b := range branches {
			req, _ := b.node["required"].([]any)
			if !slices.ContainsFunc(req, func(r any) bool { name, _ := r.(string); return !present(name) }) {
				out = append(out, i)
			}
		}
		return out
	}
	inObj := func(name string) bool { _, ok := obj[name]; return ok }
	switch only := fits(inObj); len(only) {
	case 1:
		return chosenBranch{cause: branches[only[0]].cause}, true
	case 0:
	default:
		return chosenBranch{}, false
	}
	names := s.unionNames(e, branches)
	renamed := misspelt(obj, names)
	if len(renamed) == 0 {
		return chosenBranch{}, false
	}
	only := fits(func(name string) bool { _, r := renamed[name]; return inObj(name) || r })
	if len(only) != 1 {
		return chosenBranch{}, false
	}
	b := chosenBranch{cause: branches[only[0]].cause}
	req, _ := branches[only[0]].node["required"].([]any)
	for _, r := range req {
		to, _ := r.(string)
		from, ok := renamed[to]
		if !ok || inObj(to) {
			continue
		}
		field := child(loc, from)
		b.renames = append(b.renames, finding{field: field, keyword: "additionalProperties", got: obj[from],
			renameFrom: true, allowed: names, reason: "is not a property of this tool", fix: "remove " + displayName(field),
			ask: askUnknown(field, names)})
	}
	return b, true
}

// unionBranches returns the branches of e, a failed union whose keyword
// is kw, each with its error. Every branch of a union that matched none
// fails, so each has one cause, known by its schema location.
func (s *Schema) unionBranches(e *validator.ValidationError, kw string) []unionBranch {
	prefix := e.SchemaURL + "/" + kw + "/"
	out := make([]unionBranch, 0, len(e.Causes))
	for _, c := range e.Causes {
		rest, ok := strings.CutPrefix(c.SchemaURL, prefix)
		if !ok {
			return nil
		}
		index, _, _ := strings.Cut(rest, "/")
		if _, err := strconv.Atoi(index); err != nil {
			return nil
		}
		out = append(out, unionBranch{node: s.node(prefix + index), cause: c})
	}
	return out
}

// byDiscriminator chooses a branch by the first discriminator the value
// has, in name order. decided is false when the value has none; i is -1
// when the value has one that fits no branch, or several.
func byDiscriminator(s *Schema, branches []unionBranch, obj map[string]any) (i int, decided bool) {
	consts := map[string]map[int]any{} // property -> branch -> const
	for i, b := range branches {
		props, _ := b.node["properties"].(map[string]any)
		for name, p := range props {
			p, _ := p.(map[string]any)
			if c, ok := constOf(s.deref(p)); ok {
				if consts[name] == nil {
					consts[name] = map[int]any{}
				}
				consts[name][i] = c
			}
		}
	}
	var names []string
	for name, byBranch := range consts {
		if _, has := obj[name]; has && len(byBranch) >= 2 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return 0, false
	}
	slices.Sort(names)
	if i, ok := constBranch(obj[names[0]], consts[names[0]]); ok {
		return i, true
	}
	return -1, true
}

// constOf returns the one value node allows: its const, or the member of
// a one-member enum.
func constOf(node map[string]any) (any, bool) {
	if c, ok := node["const"]; ok {
		return c, true
	}
	if e, ok := node["enum"].([]any); ok && len(e) == 1 {
		return e[0], true
	}
	return nil, false
}

// constBranch returns the branch whose const got stands for: the one it
// equals; else, for a string, the one it equals but for case and
// separators; else the one it is a typo of ([nearest.String]) or a
// prefix of at least minConstPrefix letters of, when no other branch is
// either.
func constBranch(got any, consts map[int]any) (int, bool) {
	text := jsonText(got)
	if i, ok := onlyBranch(consts, func(c any) bool { return jsonText(c) == text }); ok {
		return i, true
	}
	if anyMatch(consts, func(c any) bool { return jsonText(c) == text }) {
		return 0, false // equal to several: no fuzzy match can choose
	}
	s, ok := got.(string)
	if !ok {
		return 0, false
	}
	fold := nearest.Fold(s)
	folded := func(c any) bool { cs, ok := c.(string); return ok && nearest.Fold(cs) == fold }
	if i, ok := onlyBranch(consts, folded); ok {
		return i, true
	}
	if anyMatch(consts, folded) {
		return 0, false
	}
	var strs []string
	for _, c := range consts {
		if cs, ok := c.(string); ok {
			strs = append(strs, cs)
		}
	}
	typo, hasTypo := nearest.String(s, strs)
	return onlyBranch(consts, func(c any) bool {
		cs, ok := c.(string)
		if !ok {
			return false
		}
		prefix := utf8.RuneCountInString(fold) >= minConstPrefix && strings.HasPrefix(nearest.Fold(cs), fold)
		return prefix || (hasTypo && cs == typo)
	})
}

// onlyBranch returns the one branch whose const match accepts.
func onlyBranch(consts map[int]any, match func(any) bool) (int, bool) {
	found, n := 0, 0
	for i, c := range consts {
		if match(c) {
			found, n = i, n+1
		}
	}
	return found, n == 1
}

// anyMatch reports whether match accepts some branch's const.
func anyMatch(consts map[int]any, match func(any) bool) bool {
	for _, c := range consts {
		if match(c) {
			return true
		}
	}
	return false
}

// unionNames returns every property name the union of e and its branches
// declare or require, sorted.
func (s *Schema) unionNames(e *validator.ValidationError, branches []unionBranch) []string {
	nodes := []map[string]any{s.node(e.SchemaURL)}
	for _, b := range branches {
		nodes = append(nodes, b.node)
	}
	var names []string
	for _, n := range nodes {
		names = append(names, propertyNames(n)...)
		req, _ := n["required"].([]any)
		for _, r := range req {
			if name, ok := r.(string); ok {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// misspelt maps each name of names that obj lacks to the unknown property
// of obj that is its misspelling ([nearest.String] among the names obj
// lacks). A name two unknown properties are nearest to gets neither.
func misspelt(obj map[string]any, names []string) map[string]string {
	free := slices.DeleteFunc(slices.Clone(names), func(n string) bool { _, taken := obj[n]; return taken })
	var unknown []string
	for k := range obj {
		if _, found := slices.BinarySearch(names, k); !found {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > maxMisspelt {
		return nil
	}
	out := map[string]string{}
	claimed := map[string]int{}
	for _, k := range unknown {
		if to, ok := nearest.String(k, free); ok {
			out[to] = k
			claimed[to]++
		}
	}
	for to, n := range claimed {
		if n > 1 {
			delete(out, to)
		}
	}
	return out
}

// failingCauses returns the causes of e that [Schema.failingFields]
// walks, so that a union is judged as [Schema.findings] reports it: the
// chosen branch's error alone for a failed union whose branch is chosen,
// none for another union (it fails at its own location), every cause of
// any other error. doc is the instance that was validated.
func (s *Schema) failingCauses(e *validator.ValidationError, doc any) []*validator.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		if b, ok := s.branchOf(e, doc); ok {
			return []*validator.ValidationError{b.cause}
		}
		return nil
	}
	return e.Causes
}
