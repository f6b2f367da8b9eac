package toolerrgin

import (
	"reflect"
	"strconv"
	"strings"
)

// The field of a violation is a JSON pointer in the names the client
// sent: the json tags along the validator's namespace, never Go's names.
//
// A validator.FieldError names its field by namespace only
// ("bindArgs.Items[0].Sku"), rooted at the struct's type name. With the
// struct's type (the value bound with [ShouldBindJSON]) each Go name is
// resolved to its field's json name, embedded structs flattened as
// encoding/json flattens them: "/items/0/sku". Without it, the
// namespace's names are taken as they are: the validator's own names,
// which are the json names when a tag-name function is registered on it
// (gin's documented recipe), and Go's otherwise.

// segment is one step of a namespace: a struct field's Go name, or an
// index or map key (bracketed in the namespace).
type segment struct {
	name  string
	index bool // a bracketed index or key, not a field name
}

// parseNamespace splits a validator namespace into segments:
// "A.B[0][k].C" is A, B, [0], [k], C.
func parseNamespace(ns string) []segment {
	var out []segment
	for len(ns) > 0 {
		switch ns[0] {
		case '.':
			ns = ns[1:]
		case '[':
			end := strings.IndexByte(ns, ']')
			if end < 0 {
				return append(out, segment{name: ns[1:], index: true})
			}
			out = append(out, segment{name: ns[1:end], index: true})
			ns = ns[end+1:]
		default:
			end := strings.IndexAny(ns, ".[")
			if end < 0 {
				end = len(ns)
			}
			out = append(out, segment{name: ns[:end]})
			ns = ns[end:]
		}
	}
	return out
}

// step is one resolved step from a struct value to a field: a struct
// field index, a slice or array index, or a map key (which no repair
// follows).
type step struct {
	field []int // reflect.Value.FieldByIndex of a struct field
	index int   // an element's index; -1 for a map key
	key   bool
}

// fieldPath resolves a field error's namespace against root, the bound
// argument type (nil when unknown). It returns the JSON pointer, prefixed
// by prefix (a slice element's "/3"), and with the type known the steps
// to the value for repairs (nil when a map lies on the way or the type
// does not match).
func fieldPath(root reflect.Type, prefix, namespace, structNamespace string) (string, []step) {
	if root != nil {
		if p, steps, ok := resolve(root, parseNamespace(structNamespace)); ok {
			return prefix + p, steps
		}
	}
	segs := parseNamespace(namespace)
	if len(segs) > 1 && !segs[0].index {
		// The root struct's own name. A namespace of one name is a field
		// of an anonymous struct, which the validator names by no root.
		segs = segs[1:]
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(escapePointer(s.name))
	}
	return b.String(), nil
}

// resolve walks segs, a struct namespace, through the type t.
func resolve(t reflect.Type, segs []segment) (string, []step, bool) {
	t = deref(t)
	if t.Kind() != reflect.Struct || len(segs) == 0 {
		return "", nil, false
	}
	if t.Name() != "" {
		// A named struct's namespace starts with its name; an anonymous
		// one's with its first field.
		if segs[0].index || segs[0].name != t.Name() {
			return "", nil, false
		}
		segs = segs[1:]
	}
	var b strings.Builder
	var steps []step
	repairable := true
	for _, s := range segs {
		t = deref(t)
		switch {
		case s.index && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			i, err := strconv.Atoi(s.name)
			if err != nil || i < 0 {
				return "", nil, false
			}
			steps = append(steps, step{index: i})
			t = t.Elem()
		case s.index && t.Kind() == reflect.Map:
			steps = append(steps, step{index: -1, key: true})
			repairable = false
			t = t.Elem()
		case !s.index && t.Kind() == reflect.Struct:
			sf, ok := t.FieldByName(s.name)
			if !ok {
				return "", nil, false
			}
			steps = append(steps, step{field: sf.Index})
			t = sf.Type
			name, flat := jsonName(sf)
			if flat {
				continue // an embedded struct: its fields are the parent's in JSON
			}
			if name == "" {
				return "", nil, false // json:"-": not an argument the client sends
			}
			s.name = name
		default:
			return "", nil, false
		}
		b.WriteByte('/')
		b.WriteString(escapePointer(s.name))
	}
	if !repairable {
		steps = nil
	}
	return b.String(), steps, true
}

// jsonName is the name encoding/json gives the struct field sf: its json
// tag's name, else its Go name; "" for json:"-". flat reports an embedded
// struct without a tag name, whose fields encoding/json promotes.
func jsonName(sf reflect.StructField) (name string, flat bool) {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ = strings.Cut(tag, ",")
	if name == "" && sf.Anonymous && deref(sf.Type).Kind() == reflect.Struct {
		return "", true
	}
	if name == "" {
		name = sf.Name
	}
	return name, false
}

// deref returns the type t points to, through any pointers.
func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// escapePointer escapes a JSON pointer segment (RFC 6901).
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// displayName is how reasons and hints name the value at pointer p:
// "status", "items/0/sku", "the arguments" for the whole.
func displayName(p string) string {
	if p == "" {
		return "the arguments"
	}
	return strings.TrimPrefix(p, "/")
}
