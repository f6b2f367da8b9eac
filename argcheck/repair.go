package argcheck

import (
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
			if r.works(f, c) {
				// A default, const or enum member comes from the schema:
				// the error gets a copy the caller may change freely.
				f.suggestion, f.has = deepCopy(c), true
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

// works applies c for f to a copy of the arguments and validates it.
func (r *repairer) works(f *finding, c any) bool {
	r.trials++
	doc, ok := apply(deepCopy(r.args), f, c)
	if !ok {
		return false
	}
	after := r.s.failingFields(r.s.compiled.Validate(doc), doc)
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
		next := &repairer{s: r.s, args: doc, before: r.s.failingFields(err, doc), trials: r.trials}
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
