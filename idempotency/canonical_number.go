package idempotency

import (
	"math"
	"strconv"
	"strings"
)

// number canonicalizes the number at the read position, which must match
// the RFC 8259 grammar and be within the range of an IEEE-754 double.
func (c *canonicalizer) number() error {
	start := c.pos
	c.accept("-")
	ok := c.accept("0") || c.digits()
	if ok && c.accept(".") {
		ok = c.digits()
	}
	if ok && c.accept("eE") {
		c.accept("+-")
		ok = c.digits()
	}
	if !ok {
		return c.errorf("invalid number")
	}
	f, err := strconv.ParseFloat(string(c.in[start:c.pos]), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return c.errorf("number out of the range of an IEEE-754 double")
	}
	c.out = appendNumber(c.out, f)
	return nil
}

// accept advances past the byte at the read position if it is one of set,
// and reports whether it did.
func (c *canonicalizer) accept(set string) bool {
	if c.pos < len(c.in) && strings.IndexByte(set, c.in[c.pos]) >= 0 {
		c.pos++
		return true
	}
	return false
}

// digits advances past a run of decimal digits and reports whether there
// was at least one.
func (c *canonicalizer) digits() bool {
	start := c.pos
	for c.pos < len(c.in) && c.in[c.pos] >= '0' && c.in[c.pos] <= '9' {
		c.pos++
	}
	return c.pos > start
}

// appendNumber appends the finite double f to dst as ECMAScript's
// Number.prototype.toString writes it (ECMA-262 Number::toString, radix
// 10), the form RFC 8785 prescribes. strconv supplies the shortest digit
// string s (k digits) that reads back as f, and its decimal exponent, so that
// f = 0.s × 10^n; ECMAScript then uses plain integer notation when
// k ≤ n ≤ 21, a decimal point inside the digits when 0 < n ≤ 21, a "0." and
// leading zeros when -6 < n ≤ 0, and exponent notation d[.ddd]e±x otherwise.
// Both -0 and 0 are written as 0.
func appendNumber(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0')
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	var ebuf [32]byte
	e := strconv.AppendFloat(ebuf[:0], f, 'e', -1, 64) // d[.ddd]e±xx
	var dbuf [24]byte
	digits := dbuf[:0]
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits = append(digits, e[i])
		}
	}
	exp := 0
	for _, b := range e[i+2:] {
		exp = exp*10 + int(b-'0')
	}
	if e[i+1] == '-' {
		exp = -exp
	}
	k, n := len(digits), exp+1
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e', "+-"[boolIndex(n < 1)])
		dst = strconv.AppendInt(dst, int64(max(n-1, 1-n)), 10)
	}
	return dst
}
