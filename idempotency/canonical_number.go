package idempotency

import (
	"strconv"
	"strings"
)

// MaxCanonicalExponent bounds the numbers Canonicalize accepts: a nonzero
// number is rejected with ErrInvalidJSON when the exponent of its
// scientific form d.ddd×10^x has |x| > MaxCanonicalExponent. Such a number
// (1e1000000000) has no use in tool arguments; the bound keeps every
// exponent a small integer in every language. Zero is accepted with any
// exponent (0e99999999999 is 0).
const MaxCanonicalExponent = 999_999_999

// maxExponentDigits is the most significant digits of an exponent that is
// parsed into an int64; a longer one is out of range for any input that
// fits in memory, unless the number is zero.
const maxExponentDigits = 18

// number canonicalizes the number at the read position, which must match
// the RFC 8259 grammar, to the canonical text of its exact decimal value
// (see Canonicalize and the package documentation). It never rounds: the
// digits are copied from the input, so two texts of different values
// never give the same output.
func (c *canonicalizer) number() error {
	start := c.pos
	neg := c.accept("-")
	intStart := c.pos
	ok := c.accept("0") || c.digits()
	d := decimalDigits{intPart: c.in[intStart:c.pos]}
	if ok && c.accept(".") {
		fracStart := c.pos
		ok = c.digits()
		d.fracPart = c.in[fracStart:c.pos]
	}
	var exp int64
	expOK := true
	if ok && c.accept("eE") {
		expNeg := c.pos < len(c.in) && c.in[c.pos] == '-'
		c.accept("+-")
		expStart := c.pos
		ok = c.digits()
		exp, expOK = parseExponent(c.in[expStart:c.pos], expNeg)
	}
	if !ok {
		return c.errorf("invalid number")
	}
	first, last, nonzero := d.significant()
	if !nonzero {
		c.out = append(c.out, '0') // 0, -0, 0.000, 0e7: all zero
		return nil
	}
	// value = ±0.s × 10^n, s = digits first..last.
	n := int64(len(d.intPart)-first) + exp
	if !expOK || n-1 > MaxCanonicalExponent || n-1 < -MaxCanonicalExponent {
		c.pos = start
		return c.errorf("number exponent beyond ±%d", MaxCanonicalExponent)
	}
	if neg {
		c.out = append(c.out, '-')
	}
	c.out = d.appendLayout(c.out, first, last+1, n)
	return nil
}

// parseExponent returns the value of the exponent digits, negated when neg;
// ok is false when it has more than maxExponentDigits significant digits.
func parseExponent(digits []byte, neg bool) (exp int64, ok bool) {
	i := 0
	for i < len(digits) && digits[i] == '0' {
		i++ // leading zeros: e007 is e7
	}
	if len(digits)-i > maxExponentDigits {
		return 0, false
	}
	for _, b := range digits[i:] {
		exp = exp*10 + int64(b-'0')
	}
	if neg {
		exp = -exp
	}
	return exp, true
}

// decimalDigits are the digits of a number's integer and fraction parts,
// read as one string (the decimal point sits after the integer part).
type decimalDigits struct {
	intPart, fracPart []byte
}

// at returns digit i of the string.
func (d decimalDigits) at(i int) byte {
	if i < len(d.intPart) {
		return d.intPart[i]
	}
	return d.fracPart[i-len(d.intPart)]
}

// significant returns the positions of the first and the last nonzero
// digit; nonzero is false when every digit is 0.
func (d decimalDigits) significant() (first, last int, nonzero bool) {
	n := len(d.intPart) + len(d.fracPart)
	for first < n && d.at(first) == '0' {
		first++
	}
	if first == n {
		return 0, 0, false
	}
	last = n - 1
	for d.at(last) == '0' {
		last--
	}
	return first, last, true
}

// appendRange appends digits from..to-1 of the string to dst.
func (d decimalDigits) appendRange(dst []byte, from, to int) []byte {
	split := len(d.intPart)
	if from < split {
		dst = append(dst, d.intPart[from:min(to, split)]...)
	}
	if to > split {
		dst = append(dst, d.fracPart[max(from, split)-split:to-split]...)
	}
	return dst
}

// appendLayout appends the significant digits s = from..to-1 (k of them,
// the first and last nonzero) of the value 0.s × 10^n as ECMAScript's
// Number::toString lays out digits and exponent (ECMA-262, radix 10), the
// layout RFC 8785 prescribes: plain digits with n−k trailing zeros when
// k ≤ n ≤ 21, a decimal point inside the digits when 0 < n ≤ 21, "0." and
// −n zeros when −6 < n ≤ 0, and d[.ddd]e±x with x = |n−1| otherwise.
func (d decimalDigits) appendLayout(dst []byte, from, to int, n int64) []byte {
	k := int64(to - from)
	switch {
	case k <= n && n <= 21:
		dst = d.appendRange(dst, from, to)
		dst = append(dst, zeros[:n-k]...)
	case 0 < n && n <= 21:
		dst = d.appendRange(dst, from, from+int(n))
		dst = append(dst, '.')
		dst = d.appendRange(dst, from+int(n), to)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		dst = append(dst, zeros[:-n]...)
		dst = d.appendRange(dst, from, to)
	default:
		dst = append(dst, d.at(from))
		if k > 1 {
			dst = append(dst, '.')
			dst = d.appendRange(dst, from+1, to)
		}
		dst = append(dst, 'e', "+-"[boolIndex(n < 1)])
		dst = strconv.AppendInt(dst, max(n-1, 1-n), 10)
	}
	return dst
}

// zeros supplies the padding of appendLayout: at most 20 trailing zeros
// (n ≤ 21, k ≥ 1) or 5 leading ones (n > −6).
const zeros = "00000000000000000000"

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
