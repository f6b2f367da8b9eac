package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// PEM private keys: a block from "-----BEGIN <label>-----" to its
// "-----END <label>-----", where the label names a private key (RSA, EC,
// OPENSSH, ENCRYPTED, PGP ... PRIVATE KEY). A block cut off before its END
// line is redacted to the end of the text; one whose BEGIN line is gone
// (cut off before, or taken with a stack frame's line by the stack stage)
// is redacted from its END line back over the base64 lines before it.
// Certificates and public keys are not secret and stay.

const (
	pemBegin = "-----BEGIN"
	pemEnd   = "-----END"
	pemDash  = "-----"
)

var privateKeyRepl = redacted("private-key")

// matchPEM records the private key block that starts at s[i], if any, and
// returns where the search may go on.
func matchPEM(s string, i int, out *spanList) int {
	if !strings.HasPrefix(s[i:], pemBegin) {
		return i + 1
	}
	labelStart := i + len(pemBegin)
	labelLen := strings.Index(s[labelStart:], pemDash)
	var label string
	if labelLen < 0 {
		label = s[labelStart:]
	} else {
		label = s[labelStart : labelStart+labelLen]
	}
	if !isPrivateKeyLabel(label) {
		return i + 1
	}
	if labelLen < 0 {
		out.add(i, len(s), privateKeyRepl, KindSecret)
		return len(s)
	}
	body := labelStart + labelLen + len(pemDash)
	e := strings.Index(s[body:], pemEnd)
	if e < 0 {
		out.add(i, len(s), privateKeyRepl, KindSecret)
		return len(s)
	}
	end := body + e + len(pemEnd)
	if d := strings.Index(s[end:], pemDash); d >= 0 {
		end += d + len(pemDash)
	} else {
		end = len(s)
	}
	out.add(i, end, privateKeyRepl, KindSecret)
	return end
}

// minPEMLine is the shortest word taken for a line of a PEM body when
// walking back from an END line, beyond the last line, which may be short.
const minPEMLine = 16

// matchPEMEnd records the body before the END line of a private key that
// starts at s[i] and has no BEGIN line: the base64 words before it, the
// last one of any length and the others of minPEMLine bytes or more, if
// one is. It returns where the search may go on.
func matchPEMEnd(s string, i int, out *spanList) int {
	if !strings.HasPrefix(s[i:], pemEnd) {
		return i + 1
	}
	labelStart := i + len(pemEnd)
	labelLen := strings.Index(s[labelStart:], pemDash)
	if labelLen < 0 || !isPrivateKeyLabel(s[labelStart:labelStart+labelLen]) {
		return i + 1
	}
	end := labelStart + labelLen + len(pemDash)
	start, long := i, false
	for words := 0; ; words++ {
		we := skipSpacesBack(s, start)
		ws := we
		for ws > 0 && inAlphabet(alphaBase64, s[ws-1]) {
			ws--
		}
		if ws == we || ws > 0 && spaceRuneBefore(s, ws) == 0 || words > 0 && we-ws < minPEMLine {
			break
		}
		start, long = ws, long || we-ws >= minPEMLine
	}
	if long {
		// A BEGIN line without its label and dashes ("-----BEGIN MIIB…")
		// goes with the block: left behind, it would make the next pass
		// read the placeholder as an unterminated block.
		if p := skipSpacesBack(s, start); strings.HasSuffix(s[:p], pemBegin) {
			start = p - len(pemBegin)
		}
		out.add(start, end, privateKeyRepl, KindSecret)
	}
	return end
}

// isPrivateKeyLabel reports whether a PEM label names a private key: it
// holds "PRIVATE" and, after it, "KEY", in any case and spacing.
func isPrivateKeyLabel(label string) bool {
	for k := 0; k+len("private") <= len(label); k++ {
		if asciifold.HasPrefix(label[k:], "private") {
			rest := label[k+len("private"):]
			for m := 0; m+3 <= len(rest); m++ {
				if asciifold.HasPrefix(rest[m:], "key") {
					return true
				}
			}
			return false
		}
	}
	return false
}
