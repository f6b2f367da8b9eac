package middleware

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// maxJSONRPCIDLen bounds the id the middleware echoes, in bytes of its
// JSON token; a longer one is answered with null.
const maxJSONRPCIDLen = 256

// scanJSONRPC reads a request body, all of it when whole, and reports
// whether it starts as a JSON-RPC 2.0 message (an object with a
// "jsonrpc":"2.0" member) or batch (an array whose first element is one),
// even if it is malformed further on, and what the call is. It decodes
// nothing but what it looks at: a body of any shape costs one pass to
// check it is JSON and one to walk its top-level members, allocating
// nothing but the id it returns (and a "jsonrpc" value written with
// escapes).
func scanJSONRPC(body []byte, whole bool) (msg bool, call jsonrpcCall) {
	b := bytes.TrimLeft(body, " \t\r\n")
	if whole {
		call.parseError = !json.Valid(b)
	}
	if len(b) == 0 {
		return false, call
	}
	switch b[0] {
	case '{':
		var id []byte
		msg, id = scanJSONRPCRequest(b)
		if whole && !call.parseError && id != nil {
			call.id = bytes.Clone(id) // the body's buffer is recycled
		}
	case '[':
		s := jsonScanner{b: b, i: 1}
		s.space()
		msg, _, _ = s.object()
	}
	return msg, call
}

// scanJSONRPCRequest reads the object b starts with and reports whether it
// is a JSON-RPC 2.0 message, and the id to answer it with: nil (null)
// unless the object is a request with exactly one member each spelled
// "jsonrpc" (of "2.0"), "method" (a string) and "id", none of them spelled
// otherwise in any case ("ID", "Method"), which a case-insensitive decoder
// would take for them, and the id's value is a valid id. An id that is
// not certain is never echoed: it could match another call of the client.
// The caller checks that b is valid JSON: on text that is not, the walk
// may stop anywhere.
func scanJSONRPCRequest(b []byte) (msg bool, id []byte) {
	s := jsonScanner{b: b}
	msg, r, ok := s.object()
	if !msg || !ok || !r.method || r.versions != 1 || r.methods != 1 || r.ids != 1 || r.otherCase ||
		!validJSONRPCID(r.id) || string(r.id) == "null" {
		return msg, nil
	}
	return msg, r.id
}

// jsonrpcMembers is what jsonScanner.object saw of an object's members.
type jsonrpcMembers struct {
	id        []byte // the value of the last member named "id"
	ids       int    // members named "id"
	versions  int    // members named "jsonrpc"
	methods   int    // members named "method"
	method    bool   // the last member "method" has a string value
	otherCase bool   // a member named "id", "jsonrpc" or "method" in another case
}

// jsonScanner walks JSON text at b[i:], skipping what it does not look
// at. On valid JSON it finds what a decoder finds; on text that is not,
// it stops where it cannot go on.
type jsonScanner struct {
	b []byte
	i int
}

// space skips whitespace.
func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// str skips the string starting at s.i and returns it, quotes included.
func (s *jsonScanner) str() ([]byte, bool) {
	start := s.i
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return s.b[start:s.i], true
		}
	}
	return nil, false
}

// value skips the value starting at s.i and returns it.
func (s *jsonScanner) value() ([]byte, bool) {
	start := s.i
	if s.i >= len(s.b) {
		return nil, false
	}
	switch s.b[s.i] {
	case '"':
		return s.str()
	case '{', '[':
		for depth := 0; s.i < len(s.b); {
			switch s.b[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return nil, false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i++
					return s.b[start:s.i], true
				}
			}
			s.i++
		}
		return nil, false
	}
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return s.b[start:s.i], s.i > start
		}
		s.i++
	}
	return nil, false // a number or literal that ends the text ends no object
}

// object reads the object starting at s.i, member by member, and reports
// whether it has a "jsonrpc" member whose value is "2.0" (seen before
// anything malformed), what it saw, and whether it read the object to its
// end.
func (s *jsonScanner) object() (msg bool, r jsonrpcMembers, ok bool) {
	var buf [24]byte // an escaped key's name
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return false, r, false
	}
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return false, r, true
	}
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return msg, r, false
		}
		key, ok := s.str()
		if !ok {
			return msg, r, false
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return msg, r, false
		}
		s.i++
		s.space()
		v, ok := s.value()
		if !ok {
			return msg, r, false
		}
		msg = r.see(jsonKey(key, &buf), v) || msg
		s.space()
		if s.i >= len(s.b) {
			return msg, r, false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return msg, r, true
		default:
			return msg, r, false
		}
	}
}

// see notes the member key (unquoted, unescaped) of value v, and reports
// whether it is "jsonrpc":"2.0".
func (r *jsonrpcMembers) see(key, v []byte) (version2 bool) {
	switch {
	case string(key) == "jsonrpc":
		r.versions++
		return jsonStringIs(v, "2.0")
	case string(key) == "id":
		r.id, r.ids = v, r.ids+1
	case string(key) == "method":
		r.method, r.methods = v[0] == '"', r.methods+1
	case bytes.EqualFold(key, []byte("id")) || bytes.EqualFold(key, []byte("jsonrpc")) ||
		bytes.EqualFold(key, []byte("method")):
		r.otherCase = true
	}
	return false
}

// jsonKey returns the name the key raw (a JSON string, quotes included)
// spells: unquoted, unescaped into buf when it has escapes. A name longer
// than buf, or one that does not unescape, is returned as nil: no name of
// at most 7 letters (the members looked for), nor one a case-insensitive
// decoder takes for such a name, is longer than 21 bytes.
func jsonKey(raw []byte, buf *[24]byte) []byte {
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	out := buf[:0]
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c != '\\' {
			out = append(out, c)
		} else if i++; i >= len(inner) {
			return nil
		} else if inner[i] != 'u' {
			switch inner[i] {
			case '"', '\\', '/':
				out = append(out, inner[i])
			default:
				return nil // a control character: no name looked for
			}
		} else {
			r, ok := hex4(inner[i+1:])
			if !ok || utf16.IsSurrogate(r) {
				return nil
			}
			out, i = utf8.AppendRune(out, r), i+4
		}
		if len(out) > 21 {
			return nil
		}
	}
	return out
}

// hex4 decodes the four hex digits b starts with.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// jsonStringIs reports whether raw, a JSON value, is the string want.
func jsonStringIs(raw []byte, want string) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	if string(raw[1:len(raw)-1]) == want {
		return true
	}
	var v string
	return bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &v) == nil && v == want
}

// validJSONRPCID reports whether raw, one JSON value, is an id the
// middleware may echo: null, a number, or a string of valid UTF-8, in at
// most maxJSONRPCIDLen bytes. Objects, arrays and booleans are not ids.
func validJSONRPCID(raw []byte) bool {
	if len(raw) == 0 || len(raw) > maxJSONRPCIDLen || !json.Valid(raw) {
		return false
	}
	switch c := raw[0]; {
	case c == '"':
		return utf8.Valid(raw)
	case c == '-' || c >= '0' && c <= '9':
		return true
	}
	return string(raw) == "null"
}
