package sanitize

import "strings"

// PEM private keys: a block from "-----BEGIN <label>-----" to its
// "-----END <label>-----", where the label names a private key (RSA, EC,
// OPENSSH, ENCRYPTED, PGP ... PRIVATE KEY). A block cut off before its END
// line is redacted to the end of the text. Certificates and public keys
// are not secret and stay.

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

// isPrivateKeyLabel reports whether a PEM label names a private key: it
// holds "PRIVATE" and, after it, "KEY", in any case and spacing.
func isPrivateKeyLabel(label string) bool {
	for k := 0; k+len("private") <= len(label); k++ {
		if hasFoldAt(label, k, "private") {
			rest := label[k+len("private"):]
			for m := 0; m+3 <= len(rest); m++ {
				if hasFoldAt(rest, m, "key") {
					return true
				}
			}
			return false
		}
	}
	return false
}
