package sanitize

import "strings"

// Bearer tokens outside a header. Error messages and logs quote a
// credential with its scheme but without the header's name ("rejected
// Bearer 9f8a7b6c…", "token: bearer abc.def"), where the key/value rules
// never see an Authorization key. A long word right after the word
// "Bearer", in any case, that looks like a credential is one.

// bearerScheme is the scheme word, matched without regard to case.
const bearerScheme = "bearer"

// minBearerLen is the shortest word taken for a bearer credential: OAuth
// access tokens are far longer, and shorter words after "Bearer" are
// prose ("Bearer token expired").
const minBearerLen = 16

var bearerRepl = redacted("authorization")

// matchBareBearer records the bearer credentials of s[start:end], a run
// without ASCII white space: the run is split again at the white-space and
// control runes beyond ASCII (a no-break space, the ideographic space,
// DEL), which the collapse stage turns into spaces, so that the decision
// is the same before and after it.
func matchBareBearer(s string, start, end int, out *spanList) {
	for i := start; i < end; {
		if n := spaceRuneAt(s, i); n > 0 {
			i += n
			continue
		}
		j := i
		for j < end && spaceRuneAt(s, j) == 0 {
			j++
		}
		matchBearerWord(s, i, j, out)
		i = j
	}
}

// matchBearerWord records the credential s[start:end], a word, when the
// word before it is "Bearer" (any case, after a byte that is no letter or
// digit) and, without its quotes and trailing punctuation, it is written in
// the b64token alphabet, looks like a credential and is no stand-in.
func matchBearerWord(s string, start, end int, out *spanList) {
	p := skipSpacesBack(s, start) // any white space, line breaks too
	if p == start || p < len(bearerScheme) || !strings.EqualFold(s[p-len(bearerScheme):p], bearerScheme) {
		return
	}
	if q := p - len(bearerScheme); q > 0 && isAlnumByte(s[q-1]) {
		return
	}
	b, e := start, end
	for b < e && strings.IndexByte("\"'`", s[b]) >= 0 {
		b++
	}
	for e > b && strings.IndexByte("\"'`,;.)]}>", s[e-1]) >= 0 {
		e--
	}
	w := s[b:e]
	if len(w) < minBearerLen || !isB64Token(w) || isPlaceholder(w) || isStandIn(w) || isDummyBody(w[:min(len(w), bodyWindow)]) || !looksSecret(w) {
		return
	}
	out.add(b, e, bearerRepl, KindSecret)
}

// isB64Token reports whether w is written in the alphabet of RFC 6750's
// b64token, which bearer credentials use: letters, digits, "-._~+/", and
// '=' only at the end. A URL, a path with a port or a placeholder is not.
func isB64Token(w string) bool {
	pad := false
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case c == '=':
			pad = true
		case pad:
			return false
		case isAlnumByte(c) || strings.IndexByte("-._~+/", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// matchBareBearers runs matchBareBearer on every run of s without white
// space: the path without the prefilter.
func matchBareBearers(s string, out *spanList) {
	for i := 0; i < len(s); {
		for i < len(s) && s[i] <= ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] > ' ' {
			j++
		}
		if j > i {
			matchBareBearer(s, i, j, out)
		}
		i = j
	}
}
