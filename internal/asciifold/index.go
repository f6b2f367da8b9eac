package asciifold

import (
	"bytes"
	"strings"
)

// Case-insensitive search at the speed of bytes.IndexByte: the gateway and
// text translators look for short lower-case needles ("cf-error-code",
// "<title", "error code:") in pages of kilobytes. Comparing every byte with
// case folding is many times slower than the SIMD scan of IndexByte, so the
// search jumps with IndexByte from one occurrence of the needle's rarest
// byte (its anchor) to the next, and compares the needle only there. A
// letter anchor is searched in both cases.

// anchorCost estimates, for each byte, how costly it is as an anchor in an
// error page or message: roughly its occurrences per thousand bytes of
// HTML, CSS and prose. A letter adds its upper case (rarer) and a second
// pass. It is filled once and only read.
var anchorCost = func() (t [256]uint16) {
	for i := range t {
		t[i] = 5
	}
	for c, n := range map[byte]uint16{
		' ': 150, '<': 30, '>': 30, '"': 30, '=': 20, '/': 15, '-': 40, '.': 10, ':': 10,
		';': 8, '#': 3, ',': 3, '_': 2, '(': 2, ')': 2, '{': 2, '}': 2, '|': 1, '!': 1, '?': 1,
		'\n': 30, '\t': 10,
	} {
		t[c] = n
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = 10
	}
	letters := map[byte]uint16{
		'e': 60, 't': 50, 'a': 40, 'o': 40, 'i': 40, 'n': 40, 's': 35, 'r': 35, 'l': 25,
		'c': 25, 'd': 20, 'h': 20, 'p': 15, 'm': 15, 'u': 15, 'f': 12, 'g': 10, 'b': 8,
		'w': 8, 'y': 6, 'v': 6, 'k': 4, 'x': 3, 'j': 2, 'q': 1, 'z': 1,
	}
	for c, n := range letters {
		t[c] = n + n/5 + 10
	}
	return t
}()

// anchor returns the position in needle of its cheapest anchor byte.
func anchor(needle string) int {
	best := 0
	for i := 1; i < len(needle); i++ {
		if anchorCost[needle[i]] < anchorCost[needle[best]] {
			best = i
		}
	}
	return best
}

// Index returns the index of the first occurrence of the lower-case ASCII
// needle in s, ignoring ASCII case, or -1. IndexByte looks at each byte of
// s at most once for each case of the anchor, and the needle is compared
// only where the anchor occurs.
func Index[T ~string | ~[]byte](s T, needle string) int {
	if needle == "" {
		return 0
	}
	if len(s) <= shortText {
		return indexShort(s, needle)
	}
	k := anchor(needle)
	lower := needle[k]
	upper := lower
	if lower >= 'a' && lower <= 'z' {
		upper = lower - ('a' - 'A')
	}
	last := len(s) - len(needle) + k // the last anchor position at which the needle fits
	nextLower, nextUpper := -2, -2   // next occurrence at or after from; -1: none; -2: not searched
	if upper == lower {
		nextUpper = -1
	}
	for from := k; from <= last; {
		if nextLower != -1 && nextLower < from {
			nextLower = indexByteIn(s, lower, from, last)
		}
		if nextUpper != -1 && nextUpper < from {
			nextUpper = indexByteIn(s, upper, from, last)
		}
		i := nextLower
		if nextUpper >= 0 && (i < 0 || nextUpper < i) {
			i = nextUpper
		}
		if i < 0 {
			return -1
		}
		if HasPrefix(s[i-k:], needle) {
			return i - k
		}
		from = i + 1
	}
	return -1
}

// shortText is the length up to which Index compares the needle at every
// position: choosing an anchor and starting IndexByte cost more than that
// in a vendor message or a header value.
const shortText = 48

// indexShort is Index for a short s.
func indexShort[T ~string | ~[]byte](s T, needle string) int {
	first := needle[0]
	for i := 0; i+len(needle) <= len(s); i++ {
		if Lower(s[i]) == first && HasPrefix(s[i:], needle) {
			return i
		}
	}
	return -1
}

// Contains reports whether s holds the lower-case ASCII needle, ignoring
// ASCII case.
func Contains[T ~string | ~[]byte](s T, needle string) bool {
	return Index(s, needle) >= 0
}

// indexByteIn returns the index of c in s[from:last+1], or -1: with the
// SIMD scan of strings.IndexByte or bytes.IndexByte for the string and
// []byte callers, byte by byte for a type defined on either.
func indexByteIn[T ~string | ~[]byte](s T, c byte, from, last int) int {
	i := -1
	switch v := any(s[from : last+1]).(type) {
	case string:
		i = strings.IndexByte(v, c)
	case []byte:
		i = bytes.IndexByte(v, c)
	default:
		for j := from; j <= last; j++ {
			if s[j] == c {
				i = j - from
				break
			}
		}
	}
	if i < 0 {
		return -1
	}
	return from + i
}
