package toolerr

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Numbers in the structured members of an error. A card number, a card's
// security code or a password can reach details, allowed_values or
// suggested_value as a JSON number ({"card": 4242424242424242,
// "cvc": 123}) as easily as in text, and the agent reads both alike:
// MapText cleans them as the text they render as.

// minCleanedDigits is the fewest digits of a number MapText cleans: a card
// security code has 3.
const minCleanedDigits = 3

// member returns the value v of the object member key with its text
// cleaned, and whether anything changed.
func (m *textMapper) member(key string, v any, depth int) (any, bool) {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64,
		float32, float64, json.Number:
		return m.number(key, v)
	}
	return m.walk(v, depth)
}

// number returns v, or the cleaned text of v and true when clean changes
// it. Under an object key (key != "") the number is cleaned inside its
// JSON member, `"key": 123`, and what stands after the member's unchanged
// prefix is the number's cleaned text; when clean changed the key too,
// the number alone is cleaned.
func (m *textMapper) number(key string, v any) (any, bool) {
	text, ok := integerText(v)
	if !ok || len(text) < minCleanedDigits {
		return v, false
	}
	if key != "" {
		pair := strconv.Quote(key) + ": " + text
		c := m.clean(pair)
		if c == pair {
			return v, false
		}
		if rest, ok := strings.CutPrefix(c, pair[:len(pair)-len(text)]); ok {
			// A sanitizer that keeps JSON valid quotes what replaced a
			// number: the value is the text between the quotes.
			if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
				rest = rest[1 : len(rest)-1]
			}
			return rest, true
		}
	}
	if c := m.clean(text); c != text {
		return c, true
	}
	return v, false
}

// integerText returns the decimal digits of a non-negative integer v (a
// float64 or json.Number that holds an integer counts), or false.
func integerText(v any) (string, bool) {
	switch x := v.(type) {
	case int:
		return nonNegative(int64(x))
	case int8:
		return nonNegative(int64(x))
	case int16:
		return nonNegative(int64(x))
	case int32:
		return nonNegative(int64(x))
	case int64:
		return nonNegative(x)
	case uint:
		return strconv.FormatUint(uint64(x), 10), true
	case uint8:
		return strconv.FormatUint(uint64(x), 10), true
	case uint16:
		return strconv.FormatUint(uint64(x), 10), true
	case uint32:
		return strconv.FormatUint(uint64(x), 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case float32:
		return floatText(float64(x))
	case float64:
		return floatText(x)
	case json.Number:
		s := string(x)
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", false
			}
		}
		return s, s != ""
	}
	return "", false
}

// nonNegative formats n, or returns false when it is negative.
func nonNegative(n int64) (string, bool) {
	if n < 0 {
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// floatText formats f as the digits of the integer it holds, as
// encoding/json writes it, or returns false for a fraction, a negative
// number, an exponent form (1e21 and above) or a value that is no number.
func floatText(f float64) (string, bool) {
	if f < 0 || f >= 1e21 || math.IsNaN(f) || f != math.Trunc(f) {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', -1, 64), true
}
