package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Keys before a value. A security code or a social security number is
// redacted only when its key or label stands right before it: "cvc=123",
// `"cvc": "123"`, "card[cvc]=123", "CVC 123", "SSN: 078-05-1120",
// "social security number 078-05-1120". Between the key and the value
// only white space (any amount: collapsing it changes nothing) and a few
// separators may stand, and the filler words of keyFillers ("number",
// "no", "is"). Nothing another rule replaces can stand there, so cleaning
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
func keyWordsBefore(s string, i int) (near, far string, ok bool) {
	j := i
	for fillers := 0; ; fillers++ {
		j = skipKeySeparators(s, j)
		w, start := keyWordBefore(s, j)
		if w == "" {
			return "", "", false
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
func keyWordBefore(s string, j int) (w string, start int) {
	start = j
	for start > 0 && (isAlnumByte(s[start-1]) || s[start-1] == '_' || s[start-1] == '-') {
		start--
	}
	if start == j || strings.HasSuffix(s[:start], placeholderPrefix+":") {
		return "", start
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
			if !isSpaceOrControl(r) {
				return j
			}
			j -= n
		case c <= ' ' || c == 0x7f:
			j--
		case strings.IndexByte(`"':=#>[](`+"`", c) >= 0 && seps < maxKeySeparators:
			seps++
			j--
		default:
			return j
		}
	}
	return j
}

func isSpaceByte(c byte) bool { return c <= ' ' || c == 0x7f }

// isKeyFiller reports whether the normalized word w is a filler word.
func isKeyFiller(w string) bool {
	for _, f := range keyFillers {
		if w == f {
			return true
		}
	}
	return false
}

// normKey returns w in lower case without '_' and '-'.
func normKey(w string) string {
	b := make([]byte, 0, len(w))
	for k := 0; k < len(w); k++ {
		if c := w[k]; c != '_' && c != '-' {
			b = append(b, lowerByte(c))
		}
	}
	return string(b)
}
