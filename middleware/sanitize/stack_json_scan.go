package sanitize

import (
	"unicode/utf8"
)

// jsonScan reads JSON values in a text for the JSON trace stage. It is
// lenient as that stage needs (see stack_json.go) and bounded: it follows
// at most maxJSONDepth levels of nesting.
type jsonScan struct{ s string }

// jsonStatus is how a read ended.
type jsonStatus uint8

const (
	jsonOK  jsonStatus = iota // the value is complete
	jsonEOF                   // the text ended inside the value
	jsonBad                   // the text is not JSON there
)

// ws returns the first index >= i that is not white space or a control
// rune, as collapseSpace sees them.
func (sc *jsonScan) ws(i int) int { return len(sc.s) - len(skipSpaceRun(sc.s[i:])) }

// str reads the string at s[i] (a '"') and returns its end and its value,
// with escapes decoded. It allocates only for a string with escapes.
func (sc *jsonScan) str(i int) (end int, v string, st jsonStatus) {
	s := sc.s
	var b []byte
	for j := i + 1; j < len(s); {
		c := s[j]
		switch {
		case c == '"':
			if b == nil {
				return j + 1, s[i+1 : j], jsonOK
			}
			return j + 1, string(b), jsonOK
		case c != '\\':
			if b != nil {
				b = append(b, c)
			}
			j++
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, 2*(j-i)), s[i+1:j]...)
		}
		if j+1 >= len(s) {
			return len(s), "", jsonEOF
		}
		switch e := s[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'n':
			b = append(b, '\n')
		case 't', 'r', 'b', 'f':
			b = append(b, ' ')
		case 'u':
			if j+6 > len(s) {
				return len(s), "", jsonEOF
			}
			r := rune(0)
			for _, h := range []byte(s[j+2 : j+6]) {
				d, ok := hexValue(h)
				if !ok {
					return j, "", jsonBad
				}
				r = r<<4 | rune(d)
			}
			b = utf8.AppendRune(b, r)
			j += 6
			continue
		default:
			return j, "", jsonBad
		}
		j += 2
	}
	return len(s), "", jsonEOF
}

// hexValue returns the value of the hexadecimal digit c.
func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// value skips the value at s[i], depth levels deep, and returns its end.
func (sc *jsonScan) value(i, depth int) (int, jsonStatus) {
	s := sc.s
	switch {
	case depth > maxJSONDepth:
		return i, jsonBad
	case i >= len(s):
		return i, jsonEOF
	}
	switch s[i] {
	case '"':
		end, _, st := sc.str(i)
		return end, st
	case '{':
		return sc.members(i, func(_ string, v int) (int, jsonStatus) { return sc.value(v, depth+1) })
	case '[':
		i = sc.ws(i + 1)
		if i < len(s) && s[i] == ']' {
			return i + 1, jsonOK
		}
		for {
			end, st := sc.value(i, depth+1)
			if st != jsonOK {
				return end, st
			}
			i = sc.ws(end)
			switch {
			case i >= len(s):
				return i, jsonEOF
			case s[i] == ']':
				return i + 1, jsonOK
			case s[i] != ',':
				return i, jsonBad
			}
			i = sc.ws(i + 1)
		}
	}
	j := i
	for j < len(s) && (isAlnumByte(s[j]) || s[j] == '.' || s[j] == '+' || s[j] == '-') {
		j++
	}
	switch {
	case j == len(s):
		return j, jsonEOF
	case j == i:
		return i, jsonBad
	}
	return j, jsonOK
}

// members reads the object at s[i] (a '{'), calling f with each member's
// key and the start of its value; f returns the value's end. It returns
// the object's end.
func (sc *jsonScan) members(i int, f func(key string, v int) (int, jsonStatus)) (int, jsonStatus) {
	s := sc.s
	i = sc.ws(i + 1)
	if i < len(s) && s[i] == '}' {
		return i + 1, jsonOK
	}
	for {
		switch {
		case i >= len(s):
			return i, jsonEOF
		case s[i] != '"':
			return i, jsonBad
		}
		end, key, st := sc.str(i)
		if st != jsonOK {
			return end, st
		}
		i = sc.ws(end)
		switch {
		case i >= len(s):
			return i, jsonEOF
		case s[i] != ':':
			return i, jsonBad
		}
		i = sc.ws(i + 1)
		if i >= len(s) {
			return i, jsonEOF
		}
		if end, st = f(key, i); st != jsonOK {
			return end, st
		}
		i = sc.ws(end)
		switch {
		case i >= len(s):
			return i, jsonEOF
		case s[i] == '}':
			return i + 1, jsonOK
		case s[i] != ',':
			return i, jsonBad
		}
		i = sc.ws(i + 1)
	}
}
