package idempotency

import (
	"strings"
	"unicode/utf8"
)

// stringValue canonicalizes the string value at the read position.
func (c *canonicalizer) stringValue() error {
	var err error
	c.str, err = c.unescape(c.str[:0])
	if err != nil {
		return err
	}
	c.out = appendString(c.out, c.str)
	return nil
}

// unescape reads the string literal at the read position and appends its
// text, as UTF-8, to dst. Unescaped control characters, invalid escapes,
// lone surrogates and invalid UTF-8 are errors.
func (c *canonicalizer) unescape(dst []byte) ([]byte, error) {
	c.pos++ // opening quote
	for {
		start := c.pos
		for c.pos < len(c.in) {
			b := c.in[c.pos]
			if b == '"' || b == '\\' || b < 0x20 || b >= utf8.RuneSelf {
				break
			}
			c.pos++
		}
		dst = append(dst, c.in[start:c.pos]...)
		if c.pos >= len(c.in) {
			return dst, c.errorf("unterminated string")
		}
		switch b := c.in[c.pos]; {
		case b == '"':
			c.pos++
			return dst, nil
		case b < 0x20:
			return dst, c.errorf("unescaped control character in string")
		case b >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(c.in[c.pos:])
			if r == utf8.RuneError && size == 1 {
				return dst, c.errorf("invalid UTF-8 in string")
			}
			dst = append(dst, c.in[c.pos:c.pos+size]...)
			c.pos += size
		default: // backslash
			var err error
			if dst, err = c.escape(dst); err != nil {
				return dst, err
			}
		}
	}
}

// escape decodes the escape sequence at the read position (at its
// backslash), appending the character it stands for to dst. A \u escape of
// a high surrogate must be followed by one of a low surrogate.
func (c *canonicalizer) escape(dst []byte) ([]byte, error) {
	if c.pos+1 >= len(c.in) {
		return dst, c.errorf("unterminated escape")
	}
	e := c.in[c.pos+1]
	if e != 'u' {
		i := strings.IndexByte(`"\/bfnrt`, e)
		if i < 0 {
			return dst, c.errorf("invalid escape \\%c", e)
		}
		c.pos += 2
		return append(dst, "\"\\/\b\f\n\r\t"[i]), nil
	}
	c.pos += 2
	r, ok := c.hex4()
	switch {
	case !ok:
		return dst, c.errorf("invalid \\u escape")
	case r >= 0xDC00 && r <= 0xDFFF:
		return dst, c.errorf("lone low surrogate")
	case r >= 0xD800 && r <= 0xDBFF:
		if c.pos+1 >= len(c.in) || c.in[c.pos] != '\\' || c.in[c.pos+1] != 'u' {
			return dst, c.errorf("lone high surrogate")
		}
		c.pos += 2
		lo, ok := c.hex4()
		if !ok || lo < 0xDC00 || lo > 0xDFFF {
			return dst, c.errorf("high surrogate not followed by a low surrogate")
		}
		r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
	}
	return utf8.AppendRune(dst, r), nil
}

// hex4 reads the four hexadecimal digits of a \u escape.
func (c *canonicalizer) hex4() (rune, bool) {
	if len(c.in)-c.pos < 4 {
		return 0, false
	}
	var r rune
	for _, b := range c.in[c.pos : c.pos+4] {
		d := strings.IndexByte("0123456789abcdef0123456789ABCDEF", b)
		if d < 0 {
			return 0, false
		}
		r = r<<4 | rune(d&0xF)
	}
	c.pos += 4
	return r, true
}

// appendString appends s, valid UTF-8 text, to dst as a JSON string with the
// escaping RFC 8785 prescribes: \b \t \n \f \r \" \\ as two-character
// escapes, the other control characters as \u00xx with lower-case hex, and
// everything else (including U+007F and all non-ASCII) literally.
func appendString(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i, b := range s {
		if b >= 0x20 && b != '"' && b != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		if j := strings.IndexByte("\b\t\n\f\r\"\\", b); j >= 0 {
			dst = append(dst, '\\', `btnfr"\`[j])
		} else {
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// hexDigits are the lower-case hexadecimal digits.
const hexDigits = "0123456789abcdef"

// boolIndex returns 1 for true and 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
