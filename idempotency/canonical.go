package idempotency

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// MaxCanonicalDepth is the deepest nesting of arrays and objects that
// Canonicalize accepts; deeper input is rejected with ErrInvalidJSON so that
// hostile input cannot exhaust the stack.
const MaxCanonicalDepth = 1000

// ErrInvalidJSON reports input that Canonicalize cannot canonicalize: text
// that is not exactly one JSON value (RFC 8259), or JSON outside the I-JSON
// subset RFC 8785 requires (duplicate member names, lone surrogates or
// invalid UTF-8 in strings), a nonzero number whose exponent is beyond
// MaxCanonicalExponent, or nesting deeper than MaxCanonicalDepth. Errors
// returned by Canonicalize wrap it; test with errors.Is.
var ErrInvalidJSON = errors.New("idempotency: invalid JSON")

// Canonicalize returns the canonical form of the single JSON value in data:
// the RFC 8785 JSON Canonicalization Scheme (JCS), with no insignificant
// whitespace, object members sorted by the UTF-16 code units of their names
// and strings with the minimal escaping JCS prescribes, except that a number
// is written from its exact decimal value instead of its nearest IEEE-754
// double, in the layout of ECMAScript's Number.prototype.toString (the
// exact rule is in the package documentation). So two numbers have the
// same canonical text exactly when they are equal as decimals: 1, 1.0,
// 1e0 and 10e-1 are all 1, and -0 is 0, but 1152921504606846977 (2^60+1)
// stays itself where RFC 8785 would round it to 1152921504606846976. For
// a number that is the shortest round-trip text of a double, what
// JSON encoders print, the result is RFC 8785's.
//
// Parsing is strict: anything but one JSON value surrounded by optional
// whitespace, duplicate member names (compared after unescaping), lone
// surrogates, invalid UTF-8, a nonzero number whose exponent is beyond
// MaxCanonicalExponent and nesting deeper than MaxCanonicalDepth are errors
// wrapping ErrInvalidJSON. Numbers beyond the range of a double (1e400) are
// accepted and kept exact. Bounding the input size is the caller's job: time
// and memory are linear in it (a number's canonical text is at most 21 bytes
// longer than its text), except that reordering members moves an
// object's canonical bytes once per enclosing out-of-order object, at most
// MaxCanonicalDepth times. Canonicalize is idempotent: canonicalizing its
// output returns the same bytes.
func Canonicalize(data []byte) ([]byte, error) {
	return appendCanonical(make([]byte, 0, len(data)), data)
}

// appendCanonical appends the canonical form of data to dst. On error it
// returns nil.
func appendCanonical(dst, data []byte) ([]byte, error) {
	c := canonicalizerPool.Get().(*canonicalizer)
	c.in, c.pos, c.out = data, 0, dst
	err := c.document()
	out := c.out
	c.in, c.out = nil, nil
	// A member is four ints: 32 bytes.
	if cap(c.names)+cap(c.str)+cap(c.scratch)+32*cap(c.members) <= maxPooledScratch {
		canonicalizerPool.Put(c)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// canonicalizerPool recycles canonicalizers and their scratch buffers.
var canonicalizerPool = sync.Pool{New: func() any { return new(canonicalizer) }}

// maxPooledScratch bounds the scratch bytes a pooled canonicalizer keeps, so
// that one huge input does not pin its buffers for the process's lifetime.
const maxPooledScratch = 64 << 10

// canonicalizer holds the state of one Canonicalize call: the input and read
// position, the output, and scratch buffers shared by all nesting levels.
type canonicalizer struct {
	in  []byte
	pos int
	out []byte
	// names holds the unescaped member names of the objects being parsed;
	// members refers to them and to their output segments. Both are stacks:
	// an object truncates them back when it is done.
	names   []byte
	members []member
	// str holds an unescaped string value while it is being re-escaped.
	str []byte
	// scratch holds an object's output while its members are reordered.
	scratch []byte
}

// member locates one object member: its unescaped name in names and its
// `"name":value` segment in out.
type member struct {
	nameStart, nameEnd int
	segStart, segEnd   int
}

// errorf returns an error wrapping ErrInvalidJSON that names the input offset.
func (c *canonicalizer) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s at offset %d", ErrInvalidJSON, fmt.Sprintf(format, args...), c.pos)
}

// document canonicalizes the whole input, which must hold exactly one value.
func (c *canonicalizer) document() error {
	c.skipSpace()
	if err := c.value(0); err != nil {
		return err
	}
	c.skipSpace()
	if c.pos != len(c.in) {
		return c.errorf("trailing data")
	}
	return nil
}

// skipSpace advances past the four whitespace bytes RFC 8259 allows.
func (c *canonicalizer) skipSpace() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

// value canonicalizes the value at the read position, which is nested in
// depth arrays and objects, and appends it to out.
func (c *canonicalizer) value(depth int) error {
	if c.pos >= len(c.in) {
		return c.errorf("unexpected end of input")
	}
	switch b := c.in[c.pos]; {
	case b == '{':
		return c.object(depth + 1)
	case b == '[':
		return c.array(depth + 1)
	case b == '"':
		return c.stringValue()
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	default:
		return c.errorf("unexpected byte %q", b)
	}
}

// literal copies the literal lit (true, false or null) from input to output.
func (c *canonicalizer) literal(lit string) error {
	if len(c.in)-c.pos < len(lit) || string(c.in[c.pos:c.pos+len(lit)]) != lit {
		return c.errorf("invalid literal")
	}
	c.pos += len(lit)
	c.out = append(c.out, lit...)
	return nil
}

// array canonicalizes the array at the read position; depth counts it.
func (c *canonicalizer) array(depth int) error {
	if depth > MaxCanonicalDepth {
		return c.errorf("nesting deeper than %d", MaxCanonicalDepth)
	}
	c.pos++ // '['
	c.out = append(c.out, '[')
	if !c.punct(']') {
		for {
			c.skipSpace()
			if err := c.value(depth); err != nil {
				return err
			}
			if !c.punct(',') {
				break
			}
			c.out = append(c.out, ',')
		}
		if !c.punct(']') {
			return c.errorf("expected ',' or ']' in array")
		}
	}
	c.out = append(c.out, ']')
	return nil
}

// object canonicalizes the object at the read position; depth counts it.
// Members are written in input order, then reordered in place if needed.
func (c *canonicalizer) object(depth int) error {
	if depth > MaxCanonicalDepth {
		return c.errorf("nesting deeper than %d", MaxCanonicalDepth)
	}
	c.pos++ // '{'
	c.out = append(c.out, '{')
	if c.punct('}') {
		c.out = append(c.out, '}')
		return nil
	}
	namesBase, membersBase := len(c.names), len(c.members)
	defer func() {
		c.names, c.members = c.names[:namesBase], c.members[:membersBase]
	}()
	for {
		c.skipSpace()
		if c.pos >= len(c.in) || c.in[c.pos] != '"' {
			return c.errorf("expected member name")
		}
		m := member{nameStart: len(c.names), segStart: len(c.out)}
		var err error
		if c.names, err = c.unescape(c.names); err != nil {
			return err
		}
		m.nameEnd = len(c.names)
		c.out = appendString(c.out, c.names[m.nameStart:m.nameEnd])
		if !c.punct(':') {
			return c.errorf("expected ':' after member name")
		}
		c.out = append(c.out, ':')
		c.skipSpace()
		if err := c.value(depth); err != nil {
			return err
		}
		m.segEnd = len(c.out)
		c.members = append(c.members, m)
		if !c.punct(',') {
			break
		}
		c.out = append(c.out, ',')
	}
	if !c.punct('}') {
		return c.errorf("expected ',' or '}' in object")
	}
	return c.finishObject(membersBase)
}

// punct skips whitespace, then advances past b if it comes next, and reports
// whether it did.
func (c *canonicalizer) punct(b byte) bool {
	c.skipSpace()
	if c.pos < len(c.in) && c.in[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

// finishObject sorts the members of the object whose members start at
// c.members[base], rejects duplicate names, rewrites the object's output in
// sorted order if the input order differed, and closes the object.
func (c *canonicalizer) finishObject(base int) error {
	ms := c.members[base:]
	name := func(m member) []byte { return c.names[m.nameStart:m.nameEnd] }
	byName := func(a, b member) int { return compareUTF16(name(a), name(b)) }
	sorted := true
	for i := 1; i < len(ms); i++ {
		if byName(ms[i-1], ms[i]) >= 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		slices.SortFunc(ms, byName)
		for i := 1; i < len(ms); i++ {
			if byName(ms[i-1], ms[i]) == 0 {
				return c.errorf("duplicate member name")
			}
		}
		region := ms[0].segStart
		for _, m := range ms {
			region = min(region, m.segStart)
		}
		c.scratch = append(c.scratch[:0], c.out[region:]...)
		c.out = c.out[:region]
		for i, m := range ms {
			if i > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.scratch[m.segStart-region:m.segEnd-region]...)
		}
	}
	c.out = append(c.out, '}')
	return nil
}

// compareUTF16 compares two valid UTF-8 strings by their UTF-16 code units,
// the order RFC 8785 sorts member names in. UTF-8 byte order is code point
// order, which agrees with UTF-16 order except that code points U+E000 to
// U+FFFF (UTF-8 lead byte 0xEE or 0xEF) sort after those above U+FFFF
// (surrogate pairs, lead byte 0xF0 to 0xF4) in UTF-16. Because the strings
// are equal before the first differing byte, both runes containing it start
// at the same offset; only when that byte is a lead byte in both can the two
// orders disagree.
func compareUTF16(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0) {
			// One rune is in U+E000..U+FFFF, the other above U+FFFF.
			if x >= 0xF0 {
				return -1
			}
			return 1
		}
		if x < y {
			return -1
		}
		return 1
	}
	return cmp.Compare(len(a), len(b))
}
