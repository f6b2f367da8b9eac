package toolerrgin

import (
	"encoding/json"
	"reflect"

	"github.com/gin-gonic/gin/binding"
)

// exampleRequest is the bound arguments with every repair applied, as a
// JSON object, and only when it is proven valid: every violation has a
// repair, the repaired value encodes and decodes back, and gin's
// validator accepts what was decoded. It is left out for a single value's
// repair (field and suggested_value say it all), and when the arguments
// were not bound with [ShouldBindJSON].
//
// The object holds every field of the argument type as encoding/json
// writes it, so a field the client left out is there with the value it
// decoded to (its zero value): the same call, repaired.
func exampleRequest(args *boundArgs, fs []finding) (any, bool) {
	if args == nil || binding.Validator == nil || len(fs) == 0 {
		return nil, false
	}
	fields := map[string]bool{}
	for _, f := range fs {
		if !f.has || f.steps == nil {
			return nil, false
		}
		fields[f.field] = true
	}
	if len(fields) < 2 {
		return nil, false
	}
	t := args.rootType()
	raw, err := json.Marshal(args.ptr.Interface())
	if err != nil {
		return nil, false
	}
	repaired := reflect.New(t) // a deep copy: the handler's value stays as it is
	if json.Unmarshal(raw, repaired.Interface()) != nil {
		return nil, false
	}
	for _, f := range fs {
		if !setAt(repaired.Elem(), f.steps, f.suggestion) {
			return nil, false
		}
	}
	out, err := json.Marshal(repaired.Interface())
	if err != nil {
		return nil, false
	}
	check := reflect.New(t)
	if json.Unmarshal(out, check.Interface()) != nil || binding.Validator.ValidateStruct(check.Interface()) != nil {
		return nil, false
	}
	var example any
	if json.Unmarshal(out, &example) != nil {
		return nil, false
	}
	if _, ok := example.(map[string]any); !ok {
		return nil, false
	}
	return example, true
}

// setAt sets the value steps lead to in v to x, converted to its type;
// false when the way is blocked (a nil pointer, an index past the end) or
// x does not convert.
func setAt(v reflect.Value, steps []step, x any) bool {
	for _, s := range steps {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return false
			}
			v = v.Elem()
		}
		switch {
		case s.key:
			return false
		case s.field != nil:
			if v.Kind() != reflect.Struct {
				return false
			}
			f, err := v.FieldByIndexErr(s.field)
			if err != nil {
				return false
			}
			v = f
		default:
			if (v.Kind() != reflect.Slice && v.Kind() != reflect.Array) || s.index >= v.Len() {
				return false
			}
			v = v.Index(s.index)
		}
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	xv := reflect.ValueOf(x)
	if !v.CanSet() || !xv.IsValid() || !xv.Type().ConvertibleTo(v.Type()) {
		return false
	}
	if xv.Kind() == reflect.String && v.Kind() != reflect.String {
		return false // string to []byte or a rune: not a repair
	}
	v.Set(xv.Convert(v.Type()))
	return true
}
