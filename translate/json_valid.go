package translate

import "github.com/toolerr/toolerr/internal/jsonnum"

// validJSON reports whether b is one valid JSON value with nothing but
// white space around it, exactly as json.Valid does (including its limit
// of 10000 nested containers), at a fraction of its cost: strings, most of
// a vendor body, are checked by a tight loop rather than a state machine
// called for every byte.
func validJSON(b []byte) bool {
	var buf [64]byte
	stack := buf[:0] // the open containers, '{' or '['; on the heap only when deep
	i := skipSpace(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '{', '[':
			if len(stack) == jsonMaxDepth {
				return false
			}
			open, closing := b[i], byte(']')
			if open == '{' {
				closing = '}'
			}
			stack = append(stack, open)
			if i = skipSpace(b, i+1); i < len(b) && b[i] == closing {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if open == '{' {
				if i = validKey(b, i); i < 0 {
					return false
				}
			}
			continue
		case '"':
			i = validString(b, i)
		case 't':
			i = validLiteral(b, i, "true")
		case 'f':
			i = validLiteral(b, i, "false")
		case 'n':
			i = validLiteral(b, i, "null")
		default:
			i = jsonnum.End(b, i)
		}
		// After a value: close containers, or a comma and the next one.
		for {
			if i < 0 {
				return false
			}
			i = skipSpace(b, i)
			if len(stack) == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i = skipSpace(b, i+1)
				if top == '{' {
					i = validKey(b, i)
				}
				break
			}
			if top == '{' && b[i] == '}' || top == '[' && b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return false
		}
		if i < 0 {
			return false
		}
	}
}

// jsonMaxDepth is encoding/json's limit on nested containers.
const jsonMaxDepth = 10000

// validKey checks a member's key and its colon at b[i:], and returns the
// index of the member's value, or -1.
func validKey(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = validString(b, i); i < 0 {
		return -1
	}
	if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipSpace(b, i+1)
}

// validString checks the JSON string that starts at b[i] and returns the
// index after it, or -1.
func validString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i++; i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// isHex reports whether c is an ASCII hexadecimal digit.
func isHex(c byte) bool { return isDigitByte(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// validLiteral checks the literal word at b[i:] and returns the index
// after it, or -1.
func validLiteral(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}
