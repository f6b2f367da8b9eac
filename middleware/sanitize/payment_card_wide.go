package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/textcut"
)

// Card numbers in the digits of other scripts. A Japanese input method
// types full-width digits ("４２４２ ４２４２ …"), Arabic and Persian text
// writes Arabic-Indic ones ("٤٢٤٢…"), and an agent reads either as the
// number. A run of such digits is a card number on the rules of
// payment_card.go (13 to 19 digits, Luhn-valid, a major network's range
// and length, standing on its own), read in the digits' values, and
// becomes "[card ending 4242]" with the last four in ASCII digits. The
// groups may be split by white space (the ideographic space too), '-' or
// the full-width '－'.

// digitAt returns the value of the digit, ASCII or of another script of
// textcut.DigitZeros, that starts at s[j], and its length in bytes; size is 0 when
// no digit starts there.
func digitAt(s string, j int) (value byte, size int) {
	if j >= len(s) {
		return 0, 0
	}
	if c := s[j]; c < utf8.RuneSelf {
		if isDigitByte(c) {
			return c - '0', 1
		}
		return 0, 0
	}
	r, n := utf8.DecodeRuneInString(s[j:])
	if v, ok := textcut.Digit(r); ok {
		return v, n
	}
	return 0, 0
}

// matchWide tries the rules anchored at the non-ASCII byte s[i] and
// returns where the scan goes on: past a card number written in another
// script's digits that starts there, else past the rune (or the run of
// digits it starts).
func matchWide(s string, i int, out *spanList) int {
	_, size := digitAt(s, i)
	if size == 0 {
		_, n := utf8.DecodeRuneInString(s[i:])
		return i + n
	}
	if wideRunStartsFree(s, i) {
		if e := matchWideCard(s, i, out); e > 0 {
			return e
		}
	}
	for size > 0 {
		i += size
		_, size = digitAt(s, i)
	}
	return i
}

// wideRunStartsFree reports whether the digit run at s[i] stands on its
// own on the left: no digit of any script before it, and on ASCII
// neighbours the rules of runStartsFree.
func wideRunStartsFree(s string, i int) bool {
	if i == 0 {
		return true
	}
	if s[i-1] < utf8.RuneSelf {
		return runStartsFree(s, i)
	}
	r, n := utf8.DecodeLastRuneInString(s[:i])
	_, size := digitAt(s, i-n)
	return size == 0 || r == utf8.RuneError
}

// wideRunEndsFree reports whether a number ending at s[e] stands on its
// own on the right: no digit of any script after it, and on ASCII
// neighbours the rules of runEndsFree.
func wideRunEndsFree(s string, e int) bool {
	if e >= len(s) {
		return true
	}
	if s[e] < utf8.RuneSelf {
		return runEndsFree(s, e)
	}
	_, size := digitAt(s, e)
	return size == 0
}

// matchWideCard records the card number whose first digit, of another
// script, starts at s[i], and returns where it ends, or 0. Of the windows
// of whole groups starting at i, the longest card wins.
func matchWideCard(s string, i int, out *spanList) int {
	var digits [cardMaxDigits]byte
	n, best, bestN := 0, 0, 0
	for j := i; ; {
		for {
			v, size := digitAt(s, j)
			if size == 0 {
				break
			}
			if n == cardMaxDigits {
				return recordCard(s, i, best, digits[:bestN], out)
			}
			digits[n] = '0' + v
			n++
			j += size
		}
		if n >= cardMinDigits && wideRunEndsFree(s, j) && luhnValid(digits[:n]) && cardNetwork(digits[:n]) {
			best, bestN = j, n
		}
		k := skipSpaces(s, j)
		if k == j {
			switch {
			case strings.HasPrefix(s[j:], "-"):
				k = j + 1
			case strings.HasPrefix(s[j:], "－"):
				k = j + len("－")
			}
		}
		if _, size := digitAt(s, k); k == j || size == 0 {
			return recordCard(s, i, best, digits[:bestN], out)
		}
		j = k
	}
}

// luhnValid reports whether the ASCII digits d pass the Luhn check.
func luhnValid(d []byte) bool {
	sum := 0
	for k := range d {
		v := int(d[len(d)-1-k] - '0')
		if k%2 == 1 {
			if v *= 2; v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}
