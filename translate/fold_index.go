package translate

import "bytes"

// Case-insensitive search at the speed of bytes.IndexByte: the gateway and
// text translators look for short lower-case needles ("cf-error-code",
// "<title", "error code:") in pages of kilobytes. Comparing every byte with
// case folding is many times slower than the SIMD scan of IndexByte, so the
// search jumps with IndexByte from one occurrence of the needle's rarest
// byte (its anchor) to the next, and compares the needle only there. A
// letter anchor is searched in both cases.

// foldCost estimates, for each byte, how costly it is as an anchor in an
// error page: roughly its occurrences per thousand bytes of HTML, CSS and
// prose. A letter adds its upper case (rarer) and a second pass.
var foldCost = func() (t [256]uint16) {
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

// foldAnchor returns the position in needle of its cheapest anchor byte.
func foldAnchor(needle string) int {
	best := 0
	for i := 1; i < len(needle); i++ {
		if foldCost[needle[i]] < foldCost[needle[best]] {
			best = i
		}
	}
	return best
}

// indexFold returns the index of the first occurrence of the lower-case
// ASCII needle in b, ignoring ASCII case, or -1. IndexByte looks at each
// byte of b at most once for each case of the anchor, and the needle is
// compared only where the anchor occurs.
func indexFold(b []byte, needle string) int {
	if needle == "" {
		return 0
	}
	k := foldAnchor(needle)
	lower := needle[k]
	upper := lower
	if lower >= 'a' && lower <= 'z' {
		upper = lower - ('a' - 'A')
	}
	last := len(b) - len(needle) + k // the last anchor position at which the needle fits
	nextLower, nextUpper := -2, -2   // next occurrence at or after from; -1: none; -2: not searched
	if upper == lower {
		nextUpper = -1
	}
	for from := k; from <= last; {
		if nextLower != -1 && nextLower < from {
			nextLower = indexByteAt(b, lower, from, last)
		}
		if nextUpper != -1 && nextUpper < from {
			nextUpper = indexByteAt(b, upper, from, last)
		}
		i := nextLower
		if nextUpper >= 0 && (i < 0 || nextUpper < i) {
			i = nextUpper
		}
		if i < 0 {
			return -1
		}
		if hasPrefixFold(b[i-k:], needle) {
			return i - k
		}
		from = i + 1
	}
	return -1
}

// indexByteAt returns the index of c in b[from:last+1], or -1.
func indexByteAt(b []byte, c byte, from, last int) int {
	if i := bytes.IndexByte(b[from:last+1], c); i >= 0 {
		return from + i
	}
	return -1
}
