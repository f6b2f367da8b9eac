// Package asciifold compares text with lower-case ASCII words ignoring
// ASCII case, without allocating: "<TITLE" starts with "<title", and
// "Problem+JSON" holds "problem+json". Only the 26 ASCII letters fold; any
// other byte, and every byte of a multi-byte rune, matches only itself.
// A needle must be written in lower case: an upper-case letter in it
// matches nothing.
package asciifold

// Lower returns the ASCII lower case of c; any other byte is itself.
func Lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// HasPrefix reports whether s starts with the lower-case ASCII prefix,
// ignoring ASCII case.
func HasPrefix[T ~string | ~[]byte](s T, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if Lower(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}
