package translate

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The scanner under the shared reader (json_reader.go): it walks JSON
// containers without decoding them, so that members and items stay slices
// of the body, and decodes single strings and numbers. It trusts its input
// to be valid JSON (the reader validates a body once with validJSON) but
// stays safe on anything: on malformed input a walk stops and reports it.

// walkContainer calls visit for each member of the object (open '{') or
// item of the array (open '[') at the start of b, in document order, with
// the member's key ("" for an item) and its value, until max values were
// visited. ok is false when b is not such a container or is malformed
// before the walk ended.
func walkContainer(b []byte, open byte, max int, visit func(key, value []byte)) (ok bool) {
	b = trimLeftSpace(b)
	if len(b) == 0 || b[0] != open {
		return false
	}
	closing := byte(']')
	if open == '{' {
		closing = '}'
	}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == closing {
		return true
	}
	for n := 0; n < max; n++ {
		var key []byte
		if open == '{' {
			if i >= len(b) || b[i] != '"' {
				return false
			}
			end := skipString(b, i)
			if end < 0 {
				return false
			}
			if key, ok = decodeKey(b[i:end]); !ok {
				return false
			}
			if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
				return false
			}
			i = skipSpace(b, i+1)
		}
		end := skipValue(b, i)
		if end < 0 {
			return false
		}
		visit(key, b[i:end:end])
		if i = skipSpace(b, end); i >= len(b) {
			return false
		}
		switch b[i] {
		case closing:
			return true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
	return true
}

// walkObject splits the JSON object at the start of b into its members, or
// returns nil. A repeated key keeps its last value, as encoding/json does,
// in the place of its first.
func walkObject(b []byte) jsonObject {
	var small [16]jsonMember // the members, read on the stack, then copied once at their count
	m := jsonObject(small[:0])
	var index map[string]int // the members' places, once there are too many to search
	if !walkContainer(b, '{', int(^uint(0)>>1), func(k, v []byte) {
		if i := m.place(k, index); i >= 0 {
			m[i].value = v
			return
		}
		m = append(m, jsonMember{key: k, value: v})
		switch {
		case index != nil:
			index[string(k)] = len(m) - 1
		case len(m) > jsonLinearMax:
			index = make(map[string]int, 2*len(m))
			for i, mem := range m {
				index[string(mem.key)] = i
			}
		}
	}) {
		return nil
	}
	return append(jsonObject{}, m...)
}

// decodeKey returns the JSON string raw decoded; a key without escapes is
// the slice of raw between its quotes, not a copy.
func decodeKey(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	if inner := raw[1 : len(raw)-1]; plainString(inner) {
		return inner, true
	}
	s, ok := decodeString(raw)
	return []byte(s), ok
}

// walkArray returns the items of the JSON array at the start of b, at most
// max of them; nil when b is not an array.
func walkArray(b []byte, max int) []json.RawMessage {
	items := []json.RawMessage{}
	if !walkContainer(b, '[', max, func(_, v []byte) { items = append(items, v) }) {
		return nil
	}
	return items
}

// firstMember returns the first member of the JSON object raw in document
// order (a map forgets the order); ok is false when raw is not an object
// or is empty.
func firstMember(raw []byte) (key string, value json.RawMessage, ok bool) {
	walkContainer(raw, '{', 1, func(k, v []byte) { key, value, ok = string(k), v, true })
	return key, value, ok
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
// or -1 when it does not end. It jumps from quote to quote: a quote ends
// the string unless an odd number of backslashes escapes it.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		n := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
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
	if inner := raw[1 : len(raw)-1]; plainString(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plainString reports whether the inside of a JSON string is its decoded
// value: valid UTF-8 without escapes, quotes or control characters.
func plainString(inner []byte) bool {
	for i, c := range inner {
		switch {
		case c < 0x20 || c == '\\' || c == '"':
			return false
		case c >= utf8.RuneSelf:
			rest := inner[i:]
			return bytes.IndexByte(rest, '\\') < 0 && bytes.IndexByte(rest, '"') < 0 && utf8.Valid(rest) && !hasControl(rest)
		}
	}
	return true
}

// hasControl reports whether b holds an ASCII control character.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// numberOf returns raw when it is a JSON number.
func numberOf(raw []byte) (float64, bool) {
	if len(raw) == 0 || raw[0] != '-' && !isDigitByte(raw[0]) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}
