package toolerr

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// maxValueDepth bounds how deep [Error.MapText] walks a JSON-like value.
// A deeper branch (or a cycle) is dropped: what cannot be walked cannot be
// shown to be clean.
const maxValueDepth = 64

// MapText returns a copy of e in which every string has been passed through
// clean: the text members (type, title, detail, instance, field, hint,
// human hint, suggestions, actions, docs URL, related codes, tool), every
// member of intent and upstream, the request and trace ids, every string
// leaf and object key of allowed_values, suggested_value, details and
// example_request at any depth, and every item error of errors[],
// recursively. Booleans and nulls are left as they are, and so are numbers,
// except that an integer of 3 or more digits is cleaned as text: alone, or
// as the JSON member `"key": 4242424242424242` when an object holds it,
// so that a rule that needs the key (a card security code under "cvc")
// sees it. A number clean changes becomes the cleaned text, a string
// ("[card ending 4242]"). e itself is returned when clean changed
// nothing, and e is never modified.
//
// It is the one walk over an error that a sanitizer needs: the middleware
// and the MCP wrapper call it with the sanitizer's text function, so no
// member of an error reaches an agent, a log or a span without passing
// through it. Structured values of types other than the JSON-like ones
// (string, bool, numbers, json.Number, []string, []any, map[string]any,
// [Range]) are first converted to their JSON form, so a struct's string
// fields and a json.RawMessage are walked too; a value that cannot be
// encoded, or nests deeper than 64 levels, is dropped.
//
// A code that clean would change is not a code: it becomes INTERNAL_ERROR.
// Object keys that clean maps to the same text are kept apart by a "#2",
// "#3"… suffix, in the keys' sorted order.
func (e *Error) MapText(clean func(string) string) *Error {
	return e.mapText(clean, false, false)
}

// mapText is MapText, leaving the request id, when keepRequestID, and the
// trace id, when keepTraceID, as they are: [Write] replaces them with the
// request's own ids, which need no cleaning, so cleaning the error's would
// be work for nothing.
func (e *Error) mapText(clean func(string) string, keepRequestID, keepTraceID bool) *Error {
	if e == nil || clean == nil {
		return e
	}
	m := textMapper{clean: clean}
	c := *e
	m.str(&c.Type)
	m.str(&c.Title)
	m.str(&c.Detail)
	m.str(&c.Instance)
	if code := clean(c.Code); code != c.Code {
		c.Code, m.changed = CodeInternal, true
	}
	m.str(&c.Field)
	m.value(&c.AllowedValues)
	m.value(&c.SuggestedValue)
	m.str(&c.Hint)
	m.str(&c.HumanHint)
	c.Suggestions = m.strs(c.Suggestions)
	c.Actions = m.strs(c.Actions)
	m.str(&c.DocsURL)
	c.RelatedCodes = m.strs(c.RelatedCodes)
	if len(c.Details) > 0 {
		if d, ok := m.object(c.Details, 0); ok {
			c.Details, m.changed = d, true
		}
	}
	m.value(&c.ExampleRequest)
	if in := c.Intent; in != nil {
		// Cleaned in locals: a copy of the struct whose address is kept
		// would be allocated whether anything changed or not.
		op, id, state, recovery := in.Operation, in.ResourceID, in.State, in.Recovery
		if m.strsIn(&op, &id, &state, &recovery) {
			n := *in
			n.Operation, n.ResourceID, n.State, n.Recovery = op, id, state, recovery
			c.Intent = &n
		}
	}
	if len(c.Violations) > 0 {
		// Cloned at the first violation that changes, so that clean
		// violations cost no copy.
		var vs []Violation
		before := m.changed
		for i := range c.Violations {
			v := c.Violations[i]
			m.changed = false
			m.str(&v.Field)
			m.str(&v.Reason)
			m.value(&v.AllowedValues)
			m.value(&v.SuggestedValue)
			if m.changed && vs == nil {
				vs = slices.Clone(c.Violations)
			}
			if vs != nil {
				vs[i] = v
			}
		}
		if vs != nil {
			c.Violations = vs
		}
		m.changed = vs != nil || before
	}
	m.str(&c.Tool)
	if u := c.Upstream; u != nil {
		vendor, code, id := u.Vendor, u.Code, u.RequestID // as for the intent
		if m.strsIn(&vendor, &code, &id) {
			n := *u
			n.Vendor, n.Code, n.RequestID = vendor, code, id
			c.Upstream = &n
		}
	}
	if len(c.Errors) > 0 {
		var items []ItemError
		for i, it := range c.Errors {
			mapped := it.Err.MapText(clean)
			if mapped != it.Err && items == nil {
				items = slices.Clone(c.Errors)
			}
			if items != nil {
				items[i].Err = mapped
			}
		}
		if items != nil {
			c.Errors, m.changed = items, true
		}
	}
	if !keepTraceID {
		m.str(&c.TraceID)
	}
	if !keepRequestID {
		m.str(&c.RequestID)
	}
	if !m.changed {
		return e
	}
	// c stays on the stack while nothing changed; only a changed error
	// is copied to the heap.
	out := new(Error)
	*out = c
	return out
}

// textMapper applies clean to the strings of one error and notes whether
// anything changed, so that an error with nothing to clean is not copied.
type textMapper struct {
	clean   func(string) string
	changed bool
}

// str cleans *s in place (on the caller's copy).
func (m *textMapper) str(s *string) {
	if *s == "" {
		return
	}
	if c := m.clean(*s); c != *s {
		*s, m.changed = c, true
	}
}

// strsIn cleans each *s in place (on the caller's copy) and reports
// whether any changed.
func (m *textMapper) strsIn(ss ...*string) bool {
	changed := false
	for _, s := range ss {
		if *s == "" {
			continue
		}
		if c := m.clean(*s); c != *s {
			*s, changed = c, true
		}
	}
	m.changed = m.changed || changed
	return changed
}

// strs returns ss cleaned: ss itself when nothing changed, else a new slice.
func (m *textMapper) strs(ss []string) []string {
	out, ok := m.cleanStrings(ss)
	m.changed = m.changed || ok
	return out
}

// cleanStrings returns ss cleaned and true, or ss and false when nothing
// changed.
func (m *textMapper) cleanStrings(ss []string) ([]string, bool) {
	var out []string
	for i, s := range ss {
		c := m.clean(s)
		if c != s && out == nil {
			out = slices.Clone(ss)
		}
		if out != nil {
			out[i] = c
		}
	}
	if out == nil {
		return ss, false
	}
	return out, true
}

// value cleans the JSON-like value *v in place (on the caller's copy).
func (m *textMapper) value(v *any) {
	if *v == nil {
		return
	}
	if c, ok := m.walk(*v, 0); ok {
		*v, m.changed = c, true
	}
}

// walk returns v with its strings cleaned and true, or v and false when
// nothing changed. Maps and slices are copied, never modified.
func (m *textMapper) walk(v any, depth int) (any, bool) {
	if depth >= maxValueDepth {
		return nil, true
	}
	switch x := v.(type) {
	case nil, bool:
		return v, false
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number:
		return m.number("", v)
	case string:
		c := m.clean(x)
		return c, c != x
	case []string:
		if out, ok := m.cleanStrings(x); ok {
			return out, true
		}
		return v, false
	case []any:
		var out []any
		for i, item := range x {
			c, ok := m.walk(item, depth+1)
			if ok && out == nil {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = c
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case map[string]any:
		if out, ok := m.object(x, depth); ok {
			return out, true
		}
		return v, false
	case Range:
		if r, ok := m.rangeValue(x, depth); ok {
			return r, true
		}
		return v, false // v as it is: boxing x again would allocate
	case *Range:
		if x == nil {
			return v, false
		}
		if r, ok := m.rangeValue(*x, depth); ok {
			return r, true
		}
		return v, false
	}
	// Any other type is walked in its JSON form: a struct's string fields,
	// a json.RawMessage, a typed map or slice.
	b, err := json.Marshal(v)
	if err != nil {
		return nil, true
	}
	var generic any
	if err := decodeStrictNumbers(b, &generic); err != nil {
		return nil, true
	}
	c, _ := m.walk(generic, depth)
	return c, true
}

// rangeValue walks both bounds of r: it returns the cleaned range and
// true, or false when neither bound changed.
func (m *textMapper) rangeValue(r Range, depth int) (Range, bool) {
	lo, a := m.walk(r.Minimum, depth+1)
	hi, b := m.walk(r.Maximum, depth+1)
	if !a && !b {
		return r, false
	}
	return Range{Minimum: lo, Maximum: hi}, true
}

// cleanedMember is one member of an object being cleaned.
type cleanedMember struct {
	key, cleanKey string
	value         any
}

// object returns obj with its keys and values cleaned and true, or obj and
// false when nothing changed. A key the filter leaves as it is keeps its
// name; keys that clean to a name already taken get a "#N" suffix, in the
// sorted order of the original keys, so the result does not depend on map
// iteration and a member the handler named cleanly (" n" cleaned beside
// "n") is not renamed.
func (m *textMapper) object(obj map[string]any, depth int) (map[string]any, bool) {
	if depth >= maxValueDepth {
		return nil, true
	}
	changed := false
	members := make([]cleanedMember, 0, len(obj))
	for k, v := range obj {
		ck := m.clean(k)
		cv, ok := m.member(k, v, depth+1)
		changed = changed || ok || ck != k
		members = append(members, cleanedMember{key: k, cleanKey: ck, value: cv})
	}
	if !changed {
		return obj, false
	}
	slices.SortFunc(members, func(a, b cleanedMember) int {
		// Keys that did not change first: they keep their names.
		if ac, bc := a.cleanKey == a.key, b.cleanKey == b.key; ac != bc {
			if ac {
				return -1
			}
			return 1
		}
		return strings.Compare(a.key, b.key)
	})
	out := make(map[string]any, len(obj))
	for _, mb := range members {
		key := mb.cleanKey
		for n := 2; ; n++ {
			if _, taken := out[key]; !taken {
				break
			}
			key = mb.cleanKey + "#" + strconv.Itoa(n)
		}
		out[key] = mb.value
	}
	return out, true
}
