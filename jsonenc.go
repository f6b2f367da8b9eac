package toolerr

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/jsonnum"
)

// This file appends JSON values to a byte slice without reflection for the
// types errors usually carry, falling back to encoding/json for the rest.

const hexDigits = "0123456789abcdef"

// jsonPlain marks the ASCII bytes a JSON string holds as they are: not a
// control byte, a quote, a backslash, nor <, > or & (escaped, as
// encoding/json escapes them for HTML).
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendString appends s as a JSON string, cut at a rune boundary so that
// the decoded string is at most max bytes (max <= 0: no cut). Like encoding/json it escapes <, > and &
// (so a body sniffed as HTML stays inert), U+2028 and U+2029, and replaces
// invalid UTF-8 with U+FFFD.
func appendString(dst []byte, s string, max int) []byte {
	if max > 0 && len(s) > max/3 && (len(s) > max || !utf8.ValidString(s)) {
		s = cutDecoded(s, max)
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		i += plainPrefix(s[i:])
		if i == len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// cutDecoded returns the longest prefix of s, ending at a rune boundary,
// whose decoding is at most max bytes, counting each invalid byte as the
// three bytes of the U+FFFD that replaces it.
func cutDecoded(s string, max int) string {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		width := size
		if r == utf8.RuneError && size == 1 {
			width = len(string(utf8.RuneError))
		}
		if n+width > max {
			return s[:i]
		}
		n += width
		i += size
	}
	return s
}

var errUnsupportedValue = errors.New("toolerr: value is not JSON-encodable")

// appendValue appends v as JSON. Common shapes are encoded directly; any
// other type goes through encoding/json. NaN and infinities are errors.
func appendValue(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return appendString(dst, v, 0), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case uint:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint64:
		return strconv.AppendUint(dst, v, 10), nil
	case float64:
		return appendFloat(dst, v, 64)
	case float32:
		return appendFloat(dst, float64(v), 32)
	case json.Number:
		if v == "" {
			return append(dst, '0'), nil // as encoding/json writes it
		}
		if !jsonnum.Valid(v) {
			return dst, errUnsupportedValue
		}
		return append(dst, v...), nil
	case []string:
		dst = append(dst, '[')
		for i, s := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, s, 0)
		}
		return append(dst, ']'), nil
	case []any:
		dst = append(dst, '[')
		for i, x := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, x); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		return appendObject(dst, v)
	case Range:
		return appendRange(dst, v)
	case *Range:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendRange(dst, *v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, errUnsupportedValue
	}
	return append(dst, b...), nil
}

// appendObject appends m with its keys sorted, as encoding/json does.
func appendObject(dst []byte, m map[string]any) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k, 0)
		dst = append(dst, ':')
		var err error
		if dst, err = appendValue(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func appendRange(dst []byte, r Range) ([]byte, error) {
	dst = append(dst, '{')
	var err error
	if r.Minimum != nil {
		dst = append(dst, `"minimum":`...)
		if dst, err = appendValue(dst, r.Minimum); err != nil {
			return dst, err
		}
	}
	if r.Maximum != nil {
		if r.Minimum != nil {
			dst = append(dst, ',')
		}
		dst = append(dst, `"maximum":`...)
		if dst, err = appendValue(dst, r.Maximum); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendFloat formats f the way encoding/json does: the shortest
// representation at the given bit size, in exponent form only for very
// large or small magnitudes, compared at that bit size too.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, errUnsupportedValue
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) ||
			bits == 64 && (abs < 1e-6 || abs >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// Trim "e-09" to "e-9", as encoding/json does.
		if n := len(dst); n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}
