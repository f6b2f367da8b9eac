package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// maxProseLen is the longest text the plain-prose path takes; longer text
// runs the pipeline.
const maxProseLen = 512

// plainProse reports whether no stage of the pipeline can change text, so
// that Clean may return it as it is: a short line of ASCII letters in
// words shorter than any token the secret rules look for, single spaces
// between them, commas, semicolons and full stops only at the end of a
// word, and no
// word of the host rules ("localhost", the server's own name) nor a
// configured secret anywhere in it, in any case, and, when it has a digit,
// nothing the payment stage redacts ("CVC 123", a card number in groups of
// four). Such text has no dotted numbers (addresses, versions), no ':',
// '=', '/', '@',
// quotes or brackets (key-value secrets, URLs, paths, e-mail addresses,
// frames, markup), no dotted name and nothing to collapse or decode. Most
// vendor messages ("Rate exceeded") are such text. FuzzPlainProse checks
// that the pipeline returns every text this accepts unchanged.
func (s *Sanitizer) plainProse(text string) bool {
	if len(text) == 0 || len(text) > maxProseLen || len(text) > s.maxOutput || len(text) > s.maxInput {
		return false
	}
	word, digits := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
			word++
			if word >= minTokenLen {
				return false
			}
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			word++
			if word >= minTokenLen {
				return false
			}
		case c == '_',
			// A hyphen only between letters or digits ("rate-limited"):
			// "--password" and "-----BEGIN" start other rules.
			c == '-' && i > 0 && isAlnumByte(text[i-1]) && i+1 < len(text) && isAlnumByte(text[i+1]):
			word++
			if word >= minTokenLen {
				return false
			}
		case c == '/':
			// A JSON pointer or path of plain segments ("/limit",
			// "/items/2/sku"); "//" may start a URL's authority.
			if i+1 < len(text) && text[i+1] == '/' {
				return false
			}
			word++
			if word >= minTokenLen {
				return false
			}
		case c == ' ':
			if i == 0 || text[i-1] == ' ' || i == len(text)-1 {
				return false // a leading, trailing or doubled space collapses
			}
			word = 0
		case c == '.' || c == ',' || c == ';':
			// Only where a word ends: "a.b" may be a host name.
			if word == 0 || (i+1 < len(text) && text[i+1] != ' ') {
				return false
			}
			word = 0
		default:
			return false
		}
	}
	if digits && s.payment.finds(text) {
		return false // a card number in groups, "CVC 123", "SSN 078 05 1120"
	}
	for _, w := range s.hosts.words {
		if asciifold.Contains(text, w.word) {
			return false
		}
	}
	for _, v := range s.secrets.exact {
		if strings.Contains(text, v) {
			return false
		}
	}
	return true
}
