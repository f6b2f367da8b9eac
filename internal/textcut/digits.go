package textcut

import "unicode/utf8"

// DigitZeros are the code points of the zero of each script whose digits
// the sanitizer's card rule reads besides ASCII: Arabic-Indic, Extended
// Arabic-Indic (Persian, Urdu), Devanagari, Bengali, Gurmukhi, Gujarati,
// Oriya, Tamil, Telugu, Kannada, Malayalam, Thai, Lao, Tibetan, Myanmar,
// Khmer, Mongolian and the full-width forms. Each script's digits are the
// ten code points from its zero.
var DigitZeros = [...]rune{0x0660, 0x06F0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66,
	0x0CE6, 0x0D66, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x17E0, 0x1810, 0xFF10}

// Digit returns the value of r when it is a digit of ASCII or of a script
// of [DigitZeros].
func Digit(r rune) (value byte, ok bool) {
	if r >= '0' && r <= '9' {
		return byte(r - '0'), true
	}
	if r < DigitZeros[0] {
		return 0, false
	}
	for _, z := range DigitZeros {
		if r >= z && r <= z+9 {
			return byte(r - z), true
		}
	}
	return 0, false
}

// Separators of a number's groups beyond ASCII: the ideographic space and
// the full-width hyphen.
const (
	ideographicSpace = '\u3000'
	fullWidthHyphen  = '\uFF0D'
)

// isSeparatorRune reports whether r joins the groups of a number: white
// space (any amount, as the sanitizer's card rule reads it), '-', the
// ideographic space or the full-width hyphen.
func isSeparatorRune(r rune) bool {
	return r < utf8.RuneSelf && isSeparator(byte(r)) || r == ideographicSpace || r == fullWidthHyphen
}

// runeAt decodes the rune that starts at s[j] (j < len(s)).
func runeAt[T ~string | ~[]byte](s T, j int) (rune, int) {
	if c := s[j]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(string(s[j:min(j+utf8.UTFMax, len(s))]))
}

// runeBefore decodes the rune that ends at s[k] (k > 0).
func runeBefore[T ~string | ~[]byte](s T, k int) (rune, int) {
	if c := s[k-1]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeLastRuneInString(string(s[max(k-utf8.UTFMax, 0):k]))
}

// digitAt reports the size of the digit that starts at s[j], 0 for none.
func digitAt[T ~string | ~[]byte](s T, j int) int {
	if j >= len(s) {
		return 0
	}
	r, n := runeAt(s, j)
	if _, ok := Digit(r); ok {
		return n
	}
	return 0
}

// digitBefore reports the size of the digit that ends at s[k], 0 for none.
func digitBefore[T ~string | ~[]byte](s T, k int) int {
	if k <= 0 {
		return 0
	}
	r, n := runeBefore(s, k)
	if _, ok := Digit(r); ok {
		return n
	}
	return 0
}

// separatorAt reports the size of the separator that starts at s[j], 0
// for none.
func separatorAt[T ~string | ~[]byte](s T, j int) int {
	if j >= len(s) {
		return 0
	}
	if r, n := runeAt(s, j); isSeparatorRune(r) {
		return n
	}
	return 0
}

// separatorBefore reports the size of the separator that ends at s[k], 0
// for none.
func separatorBefore[T ~string | ~[]byte](s T, k int) int {
	if k <= 0 {
		return 0
	}
	if r, n := runeBefore(s, k); isSeparatorRune(r) {
		return n
	}
	return 0
}
