package toolerrgin

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin/binding"
)

// exampleRequest is the client's own JSON arguments with every repair
// applied, and only when it is proven valid: every violation has a repair
// of a value the client sent, the repaired arguments decode into the bound
// type, and gin's validator accepts them. It is left out for a single
// value's repair (field and suggested_value say it all), and when the
// adapter did not keep the JSON body the arguments came from (raw nil:
// see keptBody): a request rebuilt from the bound Go value would hold
// every field of the type, zero values the client never sent among them.
func exampleRequest(args *boundArgs, raw []byte, fs []finding) (any, bool) {
	if args == nil || raw == nil || binding.Validator == nil || len(fs) == 0 {
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
	bound, err := json.Marshal(args.ptr.Interface())
	if err != nil {
		return nil, false
	}
	repaired := reflect.New(t) // a deep copy: the handler's value stays as it is
	if json.Unmarshal(bound, repaired.Interface()) != nil {
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
	// The same repairs on the client's own arguments: what it sent, and
	// nothing else.
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var example any
	if d.Decode(&example) != nil {
		return nil, false
	}
	obj, ok := example.(map[string]any)
	if !ok {
		return nil, false
	}
	for _, f := range fs {
		if !replaceAt(obj, f.field, f.suggestion) {
			return nil, false
		}
	}
	// What the client sent, repaired, must be what was proven valid.
	again, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	check = reflect.New(t)
	if json.Unmarshal(again, check.Interface()) != nil || binding.Validator.ValidateStruct(check.Interface()) != nil {
		return nil, false
	}
	return obj, true
}

// replaceAt replaces the member or element the JSON pointer p names in v
// with x; false when p names nothing the client sent: a repair changes a
// value, it never adds one.
func replaceAt(v any, p string, x any) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	toks := strings.Split(p[1:], "/")
	for i, tok := range toks {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		last := i == len(toks)-1
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return false
			}
			if last {
				c[tok] = x
				return true
			}
			v = next
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(c) || strconv.Itoa(n) != tok {
				return false
			}
			if last {
				c[n] = x
				return true
			}
			v = c[n]
		default:
			return false
		}
	}
	return false
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
