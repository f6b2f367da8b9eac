package toolerrgin

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"

	"github.com/toolerr/toolerr"
)

// validator.ValidationErrors, gin binding's failure, become one
// VALIDATION_FAILED with one violation per failing field: the field as a
// JSON pointer (path.go), the reason in plain words, allowed_values from
// the tag (oneof's members; min, max, gte, lte, gt, lt as a range; len),
// and a suggested_value only where a careful person would make the change
// without asking (rules.go). example_request only where every violation
// has a repair and the repaired arguments pass the validator (example.go).

// validationFailed is the VALIDATION_FAILED of ve, the validator's
// errors for the arguments bound (args, nil when unknown), their fields
// prefixed by prefix.
func validationFailed(args *boundArgs, raw []byte, prefix string, ve validator.ValidationErrors) *toolerr.Error {
	fs := make([]finding, 0, len(ve))
	for _, fe := range ve {
		if b, ok := fe.(boundField); ok && args == nil {
			args = b.args // marked by Validator: the example's arguments
		}
		fs = append(fs, findingOf(args, prefix, fe))
	}
	return report(args, raw, fs)
}

// sliceValidationFailed is the VALIDATION_FAILED of binding's error for a
// slice of structs: one validator error per failing element, in order,
// without the element's index (binding numbers them among the failing
// ones only). With the slice bound, the index is found by validating each
// element again; without it the field is the arguments as a whole.
func sliceValidationFailed(args *boundArgs, se binding.SliceValidationError) *toolerr.Error {
	failing := args.failingElements(binding.Validator)
	var fs []finding
	k := 0
	for _, err := range se {
		var ve validator.ValidationErrors
		if !errors.As(err, &ve) {
			continue
		}
		elem, prefix := (*boundArgs)(nil), ""
		if len(failing) == countValidation(se) {
			elem, prefix = args.element(failing[k]), fmt.Sprintf("/%d", failing[k])
		}
		k++
		for _, fe := range ve {
			if b, ok := fe.(boundField); ok {
				elem, prefix = b.args, b.prefix // marked by Validator
			}
			f := findingOf(elem, prefix, fe)
			if prefix == "" {
				// Which element failed is unknown: name the field within one.
				f.reason = "has an element whose " + displayName(f.field) + " " + f.reason
				f.field, f.steps, f.has, f.suggestion = "", nil, false, nil
			}
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	return report(nil, nil, fs)
}

// countValidation counts the validator errors of se.
func countValidation(se binding.SliceValidationError) int {
	n := 0
	for _, err := range se {
		var ve validator.ValidationErrors
		if errors.As(err, &ve) {
			n++
		}
	}
	return n
}

// findingOf reads one field error of the arguments args (nil when
// unknown), its pointer prefixed by prefix.
func findingOf(args *boundArgs, prefix string, fe validator.FieldError) finding {
	field, steps := fieldPath(args.rootType(), prefix, fe.Namespace(), fe.StructNamespace())
	f := finding{field: field, steps: steps, tag: fe.Tag()}
	var sf *reflect.StructField
	if steps != nil || args.rootType() != nil {
		sf = args.structField(fe.StructNamespace())
	}
	describe(&f, fe, sf, args)
	return f
}

// describe words f from its tag, with the failing value, the struct
// field's other rules (sf, nil when the type is unknown) and the
// arguments bound (args, nil when unknown).
func describe(f *finding, fe validator.FieldError, sf *reflect.StructField, args *boundArgs) {
	name := displayName(f.field)
	tag, param := fe.Tag(), fe.Param()
	switch {
	case strings.HasPrefix(tag, "required"):
		f.reason = "is required"
		f.askUser = true
		if members := oneofOf(sf); members != nil {
			f.allowed = members
		}
	case tag == "oneof":
		members := oneofMembers(param, fe.Kind())
		f.allowed = members
		words := strings.Join(splitOneof(param), ", ")
		f.reason = "must be one of: " + words
		f.fix = "set " + name + " to one of " + words
		if s, ok := valueOf(fe).(string); ok && !noRepair(sf) {
			f.suggestion, f.has = nearestMember(s, splitOneof(param))
		}
		if !f.has && len(members) > 8 {
			f.fix = "set " + name + " to one of allowed_values"
		}
	case isBound(tag):
		describeBound(f, fe, sf)
	case tag == "len":
		describeLen(f, fe)
	case crossField(tag):
		describeCrossField(f, fe, args)
	default:
		describeFormat(f, fe)
	}
	if f.fix == "" && !f.askUser {
		f.fix = "correct " + name
	}
}

// oneofOf returns the oneof members of the struct field's binding tag,
// nil without one.
func oneofOf(sf *reflect.StructField) []any {
	if sf == nil {
		return nil
	}
	for _, r := range rulesOf(*sf) {
		if r.tag == "oneof" {
			return oneofMembers(r.param, deref(sf.Type).Kind())
		}
	}
	return nil
}

// report assembles the findings into one VALIDATION_FAILED.
func report(args *boundArgs, raw []byte, fs []finding) *toolerr.Error {
	rankFindings(fs)
	vs := make([]toolerr.Violation, len(fs))
	for i, f := range fs {
		vs[i] = toolerr.Violation{Field: f.field, Reason: f.reason, AllowedValues: f.allowed}
		if f.has {
			vs[i].SuggestedValue = f.suggestion
		}
	}
	example, hasExample := exampleRequest(args, raw, fs)
	top := vs[0]
	e := toolerr.Default().New(toolerr.CodeValidationFailed, detail(fs)).
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
