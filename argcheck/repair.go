package argcheck

import (
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// maxTrials bounds the validations spent checking suggestions of one call;
// a call with more than maxRepaired violations (no more are rendered) gets
// none looked for. So a call with many violations costs a bounded amount.
const (
	maxTrials   = 64
	maxRepaired = 32
)

// repairer derives and checks the suggestions of one call's findings.
type repairer struct {
	s      *Schema
	args   any             // the arguments as sent; never modified
	before map[string]bool // the fields failing as sent
	trials int
	depth  int // 1 in the second step of a repair, which has no third
	// rewrites is the pattern matches the call may still spend on
	// separator and case rewrites, shared by every step.
	rewrites *int
}

// suggest sets the suggestion of every finding that has one that works:
// with it in place, nothing fails at the finding's field and nothing that
// passed fails.
func (r *repairer) suggest(fs []finding) {
	if len(fs) > maxRepaired {
		// More violations than are rendered: no call this broken is one
		// repair away, and checking repairs would cost a validation of
		// the whole document each.
		return
	}
	for i := range fs {
		if r.trials >= maxTrials {
			return
		}
		f := &fs[i]
		for _, c := range r.candidates(f) {
			if r.trials >= maxTrials {
				return
			}
			if v, ok := r.works(f, c); ok {
				// A default, const or enum member comes from the schema:
				// the error gets a copy the caller may change freely.
				f.suggestion, f.has = deepCopy(v), true
				break
			}
		}
	}
}

// coverRenames gives a missing property the value of the misspelt
// property whose suggestion renames it into place, even when it has a
// default of its own: the rename repairs both, so the missing one is
// marked covered and not applied on its own.
func coverRenames(fs []finding, args any) {
	for i := range fs {
		f := &fs[i]
		if !f.renameFrom || !f.has {
			continue
		}
		target := siblingOf(f.field, f.suggestion.(string))
		for j := range fs {
			g := &fs[j]
			if g.field == target && g.keyword == "required" {
				// The value the caller sent wins over a default or a
				// const the missing property could get on its own.
				v, _ := lookup(args, f.field)
				g.suggestion, g.has, g.covered = v, true, true
			}
		}
	}
}

// works reports whether c repairs f. Put in place, nothing may fail at
// f's field (for a rename, at the new name) and nothing that passed may
// fail, after at most one more repair where the first one leads: a
// string number converted and then capped, a renamed property's value
// converted, a case fix and then the duplicate it makes dropped. Each
// step is a repair by itself. It returns the value to suggest: c, or for
// a value fixed in two steps, the value after both.
func (r *repairer) works(f *finding, c any) (any, bool) {
	r.trials++
	doc, ok := apply(deepCopy(r.args), f, c)
	if !ok {
		return nil, false
	}
	target := f.field
	if f.renameFrom {
		target = siblingOf(f.field, c.(string))
	}
	err := r.s.compiled.Validate(doc)
	after := r.s.failingFields(err, doc)
	if r.settled(after, f.field, target) {
		return c, true
	}
	verr, isValidation := err.(*validator.ValidationError)
	if r.depth > 0 || !isValidation {
		return nil, false
	}
	// The second step: every new failure must be where the first step
	// leads (at or under the target, or the array a value belongs to)
	// and have a repair of its own.
	next := &repairer{s: r.s, args: doc, before: after, trials: r.trials, depth: 1, rewrites: r.rewrites}
	atTarget := false
	for _, g := range r.s.findings(verr, doc) {
		if r.before[g.field] && g.field != target || !leadsTo(f, target, g) {
			continue
		}
		atTarget = atTarget || g.field == target
		fixed := false
		for _, c2 := range next.candidates(&g) {
			if next.trials >= maxTrials {
				break
			}
			if v, ok := next.works(&g, c2); ok {
				if doc, ok = apply(doc, &g, v); ok {
					fixed = true
				}
				break
			}
		}
		if !fixed {
			r.trials = next.trials
			return nil, false
		}
		next.args = doc
	}
	r.trials = next.trials
	if !r.settled(r.s.failingFields(r.s.compiled.Validate(doc), doc), f.field, target) {
		return nil, false
	}
	if !f.renameFrom && atTarget {
		if v, ok := lookup(doc, target); ok {
			return v, true
		}
	}
	return c, true
}

// settled reports whether, of the fields failing after a repair of the
// value at field (now at target), none is that value or under it, and
// none passed before.
func (r *repairer) settled(after map[string]bool, field, target string) bool {
	for failing := range after {
		if failing == field || failing == target || strings.HasPrefix(failing, target+"/") || !r.before[failing] {
			return false
		}
	}
	return true
}

// leadsTo reports whether g, a violation after the repair of f (whose
// value is now at target), is one that repair leads to: at or under
// target, or the uniqueness of the array holding it.
func leadsTo(f *finding, target string, g finding) bool {
	if g.field == target || strings.HasPrefix(g.field, target+"/") {
		return true
	}
	parent := target
	if i := strings.LastIndexByte(target, '/'); i >= 0 {
		parent = target[:i]
	}
	return g.keyword == "uniqueItems" && g.field == parent && !f.renameFrom
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
		next := &repairer{s: r.s, args: doc, before: r.s.failingFields(err, doc), trials: r.trials, rewrites: r.rewrites}
		fs = r.s.findings(verr, doc)
		next.suggest(fs)
		coverRenames(fs, doc)
		r.trials = next.trials
		doc = deepCopy(doc)
	}
	return nil, false
}

// failingFields returns the pointers at which err, the validation of doc,
// reports a violation, missing and extra properties at their own
// pointers, a union's inside the branch doc meant ([Schema.failingCauses]).
func (s *Schema) failingFields(err error, doc any) map[string]bool {
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
		causes := s.failingCauses(e, doc)
		for _, c := range causes {
			walk(c)
		}
		if len(causes) > 0 {
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
