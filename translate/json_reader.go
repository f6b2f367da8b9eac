package translate

import (
	"encoding/json"
)

// The shared reader of JSON vendor bodies. Every translator reads members
// of a JSON object through jsonObject and its accessors, leniently: a
// member of an unexpected type reads as absent instead of failing the whole
// body, so one odd member never hides the rest of an error.
//
// A body is validated once (validJSON) and then
// walked member by member; the members stay slices of the body, so a 64
// KiB stack trace in a member is neither copied nor decoded unless a
// translator asks for it as a string. Raw.object caches the walk of the
// body, so every translator of a response shares one.

const (
	// jsonTextMax bounds a string an accessor returns (a message, a
	// field, a link); longer ones are cut (see clipText).
	jsonTextMax = 1024
	// jsonCodeMax bounds a vendor code: longer "codes" are prose.
	jsonCodeMax = 128
	// jsonMaxItems bounds how many items of an array the reader returns.
	jsonMaxItems = 16

	// jsonLinearMax is how many members an object is searched through one
	// by one; walkObject indexes a larger one while it reads it.
	jsonLinearMax = 32
)

// jsonObject is a JSON object whose members are undecoded JSON values, in
// document order, each key once. nil is no object; an empty object is an
// empty, non-nil slice. A slice rather than a map: the objects of error
// bodies have a handful of members, which a search finds sooner than a
// map is built.
type jsonObject []jsonMember

// jsonMember is one member of a JSON object: its decoded key (a slice of
// the body when the key has no escapes) and its undecoded value.
type jsonMember struct {
	key   []byte
	value json.RawMessage
}

// get returns the value of member k, or nil when there is none.
func (o jsonObject) get(k string) json.RawMessage {
	for i := range o {
		if string(o[i].key) == k {
			return o[i].value
		}
	}
	return nil
}

// place returns the index of member k, or -1; index, when not nil, maps
// every key to its index.
func (o jsonObject) place(k []byte, index map[string]int) int {
	if index != nil {
		if i, ok := index[string(k)]; ok {
			return i
		}
		return -1
	}
	for i := range o {
		if string(o[i].key) == string(k) {
			return i
		}
	}
	return -1
}

// keys returns the object's keys in document order.
func (o jsonObject) keys() []string {
	out := make([]string, len(o))
	for i := range o {
		out[i] = string(o[i].key)
	}
	return out
}

// readObject returns b as a JSON object, or nil when b is not one
// (another JSON value, malformed or truncated JSON). Leading white space
// and a byte order mark are skipped.
func readObject(b []byte) jsonObject {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '{' || !validJSON(b) {
		return nil
	}
	return walkObject(b)
}

// has reports whether the object has member k, whatever its value.
func (o jsonObject) has(k string) bool { return o.get(k) != nil }

// str returns the first of keys whose value is a JSON string that is not
// blank, as text (see textOf); "" when none is.
func (o jsonObject) str(keys ...string) string {
	for _, k := range keys {
		if s := textOf(o.get(k)); s != "" {
			return s
		}
	}
	return ""
}

// textOf returns the JSON string raw decoded and clipped (see clipText);
// "" when raw is not a string.
func textOf(raw []byte) string {
	s, _ := decodeString(raw)
	return clipText(s)
}

// code returns the first of keys whose value is a code: a string without
// white space or control characters, or an integer as written ("404",
// "10001"). Prose, objects and over-long values are not codes.
func (o jsonObject) code(keys ...string) string {
	for _, k := range keys {
		raw := o.get(k)
		if len(raw) == 0 {
			continue
		}
		if raw[0] == '"' {
			if s := o.str(k); isCode(s) {
				return s
			}
			continue
		}
		if isInteger(raw) && len(raw) <= 20 {
			return string(raw)
		}
	}
	return ""
}

// obj returns member k as an object, or nil.
func (o jsonObject) obj(k string) jsonObject { return walkObject(o.get(k)) }

// items returns the items of the array member k, at most jsonMaxItems of
// them; nil when k is not an array.
func (o jsonObject) items(k string) []json.RawMessage { return walkArray(o.get(k), jsonMaxItems) }

// first returns the first item of the array member k as an object, or nil.
func (o jsonObject) first(k string) jsonObject {
	if items := walkArray(o.get(k), 1); len(items) > 0 {
		return walkObject(items[0])
	}
	return nil
}

// firstString returns the first item of the array member k when it is a
// string (as in {"errors": ["name is required"]}), trimmed and cut like
// str.
func (o jsonObject) firstString(k string) string { return firstItemText(o.get(k)) }

// firstItemText returns the first item of the JSON array raw as text when
// it is a string, else "".
func firstItemText(raw []byte) string {
	if items := walkArray(raw, 1); len(items) > 0 {
		return textOf(items[0])
	}
	return ""
}

// stringOrFirst returns raw as text when it is a JSON string, else the
// first item of raw when raw is an array whose first item is a string
// (vendors write a message both ways); else "".
func stringOrFirst(raw []byte) string {
	if s := textOf(raw); s != "" {
		return s
	}
	return firstItemText(raw)
}

// strs returns the non-empty string items of the array member k.
func (o jsonObject) strs(k string) []string {
	var out []string
	for _, item := range o.items(k) {
		if s, ok := decodeString(item); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// boolean returns member k as a boolean; ok is false when it is not one.
func (o jsonObject) boolean(k string) (v, ok bool) {
	switch string(o.get(k)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// integer returns member k when it is a JSON integer that fits in an
// int32.
func (o jsonObject) integer(k string) (int, bool) {
	var n int32
	if raw := o.get(k); !isInteger(raw) || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return int(n), true
}

// number returns member k when it is a JSON number.
func (o jsonObject) number(k string) (float64, bool) { return numberOf(o.get(k)) }

// readFirstItem returns the first item of the JSON array b as an object,
// or nil. Only that item must be valid JSON: the rest of the array may be
// cut, as a body at its cap is.
func readFirstItem(b []byte) jsonObject {
	if items := walkArray(b, 1); len(items) > 0 && validJSON(items[0]) {
		return walkObject(items[0])
	}
	return nil
}

// readArray returns the items of the JSON array b, at most jsonMaxItems of
// them, or nil when b is not a valid JSON array.
func readArray(b []byte) []json.RawMessage {
	if b = trimLeftSpace(b); len(b) == 0 || b[0] != '[' || !validJSON(b) {
		return nil
	}
	return walkArray(b, jsonMaxItems)
}
