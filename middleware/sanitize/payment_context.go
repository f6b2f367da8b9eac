package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Keys before a value. A security code or a social security number is
// redacted only when its key or label stands right before it: "cvc=123",
// `"cvc": "123"`, "card[cvc]=123", "CVC 123", "SSN: 078-05-1120",
// "social security number 078-05-1120". Between the key and the value
// only white space (any amount: collapsing it changes nothing), a few
// separators (keySeparators, also percent-encoded: "card%5Bcvc%5D=123")
// and the filler words of keyFillers ("number", "no", "is") may stand. Nothing another rule replaces can stand there, so cleaning
// clean text finds nothing new. A word inside a placeholder
// ("[REDACTED:ssn]") is never a key.

// keyFillers are the words skipped between a label and its value.
var keyFillers = [...]string{"number", "no", "num", "nr", "is"}

// maxKeySeparators bounds the separators other than white space between
// a key and its value.
const maxKeySeparators = 4

// keyWordsBefore returns the two words before s[i] (near is the closer
// one), in lower case with '_' and '-' removed, skipping separators and
// filler words; ok is false when no word stands there. At most two
// fillers are skipped.
func keyWordsBefore(s string, i int) (near, far keyWord, ok bool) {
	j := skipTypeNote(s, skipKeySeparators(s, i))
	for fillers := 0; ; fillers++ {
		j = skipKeySeparators(s, j)
		w, start := keyWordBefore(s, j)
		if w.n == 0 {
			return near, far, false
		}
		if fillers < 2 && isKeyFiller(w) {
			j = start
			continue
		}
		near, j = w, start
		break
	}
	k := j // the far word counts only when white space alone parts them
	for k > 0 && isSpaceByte(s[k-1]) {
		k--
	}
	if k < j {
		far, _ = keyWordBefore(s, k)
	}
	return near, far, true
}

// keyWordBefore returns the word of letters, digits, '_' and '-' that
// ends s[:j], normalized by normKey, and where it starts; the word is ""
// when there is none or it is inside a placeholder.
func keyWordBefore(s string, j int) (w keyWord, start int) {
	start = j
	for start > 0 && (isAlnumByte(s[start-1]) || s[start-1] == '_' || s[start-1] == '-') {
		start--
	}
	if start == j || strings.HasSuffix(s[:start], placeholderPrefix+":") {
		return keyWord{}, start
	}
	return normKey(s[start:j]), start
}

// skipKeySeparators returns the index before the white space and
// separators that end s[:j].
func skipKeySeparators(s string, j int) int {
	seps := 0
	for j > 0 {
		c := s[j-1]
		switch {
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeLastRuneInString(s[:j])
			switch {
			case isSpaceOrControl(r):
			case (r == '：' || r == '＝') && seps < maxKeySeparators: // full-width ':' and '='
				seps++
			default:
				return j
			}
			j -= n
		case c <= ' ' || c == 0x7f:
			j--
		case strings.IndexByte(keySeparators, c) >= 0 && seps < maxKeySeparators:
			seps++
			j--
		case j >= 3 && s[j-3] == '%' && seps < maxKeySeparators && isPercentSeparator(s[j-2:j]):
			seps++ // "card%5Bcvc%5D=123": a separator a URL encoded
			j -= 3
		default:
			return j
		}
	}
	return j
}

// keySeparators are the bytes that may stand between a key and its value,
// besides white space: quotes, ':', '=', '#' ("SSN#"), '>' (a tag), the
// brackets of "card[cvc]" and "(CVC):", '.' ("No.") and '`'.
const keySeparators = "\"':=#>[]().`"

// isPercentSeparator reports whether hex, the two digits of a percent
// escape, encodes one of keySeparators.
func isPercentSeparator(hex string) bool {
	hi, ok1 := hexValue(hex[0])
	lo, ok2 := hexValue(hex[1])
	return ok1 && ok2 && strings.IndexByte(keySeparators, hi<<4|lo) >= 0
}

func isSpaceByte(c byte) bool { return c <= ' ' || c == 0x7f }

// isKeyFiller reports whether the normalized word w is a filler word.
func isKeyFiller(w keyWord) bool {
	for _, f := range keyFillers {
		if w.is(f) {
			return true
		}
	}
	return false
}

// keyWord is a word before a value, in lower case without '_' and '-',
// kept without allocating: its last len(b) bytes, which every key fits.
type keyWord struct {
	b    [28]byte
	n    int // bytes in b; a longer word keeps its end, and long is set
	long bool
}

// normKey returns w in lower case without '_' and '-'.
func normKey(w string) keyWord {
	var k keyWord
	for i := len(w) - 1; i >= 0; i-- {
		c := w[i]
		if c == '_' || c == '-' {
			continue
		}
		if k.n == len(k.b) {
			k.long = true
			break
		}
		k.n++
		k.b[len(k.b)-k.n] = asciifold.Lower(c)
	}
	return k
}

// is reports whether the word is w.
func (k *keyWord) is(w string) bool {
	return !k.long && string(k.b[len(k.b)-k.n:]) == w
}

// hasSuffix reports whether the word ends with w.
func (k *keyWord) hasSuffix(w string) bool {
	return len(w) <= k.n && string(k.b[len(k.b)-len(w):]) == w
}

// mayHaveKeyBefore is a quick necessary test for keyWordsBefore finding a
// key of the security-code or social-security rules: the word before s[i]
// (past the separators) must end, in lower case and without '_' and '-',
// with the last two letters of a key or of a filler word. Most numbers of
// prose follow a word that does not ("between 1880", "to 118").
func mayHaveKeyBefore(s string, i int) bool {
	j := skipTypeNote(s, skipKeySeparators(s, i))
	var last [2]byte
	n := 0
	for k := j - 1; k >= 0 && n < 2; k-- {
		c := s[k]
		switch {
		case c == '_' || c == '-':
			continue
		case isAlnumByte(c):
			n++
			last[2-n] = asciifold.Lower(c)
			continue
		}
		break
	}
	if n < 2 {
		return false
	}
	switch string(last[:]) {
	case "vc", "vv", "c2", "v2", "sc", "vn", "id", "de", "ue", // cvc cvv cvc2 cvv2 csc cvn cid code value
		"sn", "ss", "in", "ty", // ssn ss tin itin security
		"er", "no", "um", "nr", "is": // the fillers
		return true
	}
	return false
}
