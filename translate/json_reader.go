package translate

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The shared reader of JSON vendor bodies. Every translator reads members
// of a JSON object through jsonObject and its accessors, leniently: a
// member of an unexpected type reads as absent instead of failing the whole
// body, so one odd member never hides the rest of an error.
//
// A body is validated once (json.Valid, which allocates nothing) and then
// walked member by member; the members stay slices of the body, so a 64
// KiB stack trace in a member is neither copied nor decoded unless a
// translator asks for it as a string. Raw.object caches the walk of the
// body, so every translator of a response shares one.

const (
	// jsonTextMax bounds a string an accessor returns (a message, a
	// field, a link); longer ones are cut at a word boundary.
	jsonTextMax = 1024
	// jsonCodeMax bounds a vendor code: longer "codes" are prose.
	jsonCodeMax = 128
	// jsonMaxItems bounds how many items of an array the reader returns.
	jsonMaxItems = 16
)

// jsonObject is a JSON object whose members are undecoded JSON values.
type jsonObject map[string]json.RawMessage

// readObject returns b as a JSON object, or nil when b is not one
// (another JSON value, malformed or truncated JSON). Leading white space
// and a byte order mark are skipped.
func readObject(b []byte) jsonObject {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return nil
	}
	return walkObject(b)
}

// walkObject splits the JSON object at the start of b into its members.
// b is valid JSON when it comes from a validated body; on anything else
// the walk stops safely and returns nil. A repeated key keeps its last
// value, as encoding/json does.
func walkObject(b []byte) jsonObject {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	m := jsonObject{}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == '}' {
		return m
	}
	for i < len(b) {
		if b[i] != '"' {
			return nil
		}
		end := skipString(b, i)
		if end < 0 {
			return nil
		}
		key, ok := decodeString(b[i:end])
		if !ok {
			return nil
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil
		}
		start := skipSpace(b, i+1)
		end = skipValue(b, start)
		if end < 0 {
			return nil
		}
		m[key] = b[start:end:end]
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil
		}
		switch b[i] {
		case '}':
			return m
		case ',':
			i = skipSpace(b, i+1)
		default:
			return nil
		}
	}
	return nil
}

// walkArray returns the items of the JSON array at the start of b, at most
// max of them; nil when b is not an array.
func walkArray(b []byte, max int) []json.RawMessage {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != '[' {
		return nil
	}
	items := []json.RawMessage{}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return items
	}
	for i < len(b) && len(items) < max {
		end := skipValue(b, i)
		if end < 0 {
			return nil
		}
		items = append(items, b[i:end:end])
		i = skipSpace(b, end)
		if i >= len(b) {
			return nil
		}
		switch b[i] {
		case ']':
			return items
		case ',':
			i = skipSpace(b, i+1)
		default:
			return nil
		}
	}
	if len(items) == max {
		return items
	}
	return nil
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the JSON string that starts at b[i],
// or -1 when it does not end.
func skipString(b []byte, i int) int {
	for i++; i < len(b); {
		j := bytes.IndexAny(b[i:], `"\`)
		if j < 0 {
			return -1
		}
		i += j
		if b[i] == '"' {
			return i + 1
		}
		i += 2 // an escape: skip the escaped byte
	}
	return -1
}

// skipValue returns the index after the JSON value that starts at b[i], or
// -1 when it does not end. Containers are skipped by counting brackets
// outside strings, without recursion.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	start := i
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' &&
		b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	if i == start {
		return -1
	}
	return i
}

// decodeString returns the JSON string raw decoded; ok is false when raw is
// not a JSON string. A plain string (no escapes, valid UTF-8) is copied
// without the decoder.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	plain := bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 && utf8.Valid(inner)
	for _, c := range inner {
		if c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// has reports whether the object has member k, whatever its value.
func (o jsonObject) has(k string) bool {
	_, ok := o[k]
	return ok
}

// str returns the first of keys whose value is a JSON string that is not
// blank, as text (see textOf); "" when none is.
func (o jsonObject) str(keys ...string) string {
	for _, k := range keys {
		if s := textOf(o[k]); s != "" {
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
		raw := o[k]
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
func (o jsonObject) obj(k string) jsonObject { return walkObject(o[k]) }

// items returns the items of the array member k, at most jsonMaxItems of
// them; nil when k is not an array.
func (o jsonObject) items(k string) []json.RawMessage { return walkArray(o[k], jsonMaxItems) }

// first returns the first item of the array member k as an object, or nil.
func (o jsonObject) first(k string) jsonObject {
	if items := walkArray(o[k], 1); len(items) > 0 {
		return walkObject(items[0])
	}
	return nil
}

// firstString returns the first item of the array member k when it is a
// string (as in {"errors": ["name is required"]}), trimmed and cut like
// str.
func (o jsonObject) firstString(k string) string { return firstItemText(o[k]) }

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
	switch string(o[k]) {
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
	if raw := o[k]; !isInteger(raw) || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return int(n), true
}

// number returns member k when it is a JSON number.
func (o jsonObject) number(k string) (float64, bool) { return numberOf(o[k]) }

// numberOf returns raw when it is a JSON number.
func numberOf(raw []byte) (float64, bool) {
	if len(raw) == 0 || raw[0] != '-' && !isDigitByte(raw[0]) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// firstMember returns the first member of the JSON object raw in document
// order (a map forgets the order), or ok false.
func firstMember(raw []byte) (key string, value json.RawMessage, ok bool) {
	raw = trimLeftSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return "", nil, false
	}
	i := skipSpace(raw, 1)
	if i >= len(raw) || raw[i] != '"' {
		return "", nil, false
	}
	end := skipString(raw, i)
	if end < 0 {
		return "", nil, false
	}
	if key, ok = decodeString(raw[i:end]); !ok {
		return "", nil, false
	}
	if i = skipSpace(raw, end); i >= len(raw) || raw[i] != ':' {
		return "", nil, false
	}
	start := skipSpace(raw, i+1)
	if end = skipValue(raw, start); end < 0 {
		return "", nil, false
	}
	return key, raw[start:end:end], true
}

// readFirstItem returns the first item of the JSON array b as an object,
// or nil. Only that item must be valid JSON: the rest of the array may be
// cut, as a body at its cap is.
func readFirstItem(b []byte) jsonObject {
	if items := walkArray(b, 1); len(items) > 0 && json.Valid(items[0]) {
		return walkObject(items[0])
	}
	return nil
}

// readArray returns the items of the JSON array b, at most jsonMaxItems of
// them, or nil when b is not a valid JSON array.
func readArray(b []byte) []json.RawMessage {
	if b = trimLeftSpace(b); len(b) == 0 || b[0] != '[' || !json.Valid(b) {
		return nil
	}
	return walkArray(b, jsonMaxItems)
}
