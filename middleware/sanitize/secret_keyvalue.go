package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Key/value secrets, anchored at their separator ('=' or ':'): query
// strings and form bodies (password=...), DSN key=value pairs, JDBC
// ;password=..., JSON ("token": "..."), YAML (secret: ...), Ruby hashes
// (password => ...), HTTP headers (Authorization: Bearer ...), and
// assignments in code: Go's := and Make's ::=, ?=, PHP's .=, typed
// declarations (var apiToken string = "...", val token: String = "..."),
// and XML attributes (<add key="ClearTextPassword" value="..."/>).
//
// How sure a value must look depends on how it is written and on how
// surely its key names a secret. Under a strong key (password, token,
// secret, api_key ...) quoted values and tight assignments (key=value) are
// secrets unless empty, a stand-in (null, ***, $VAR, <token>) or, when
// quoted, a sentence; values after "key: " or "key = " must look like a
// credential (looksSecret), so prose such as "password: must be 12
// characters" survives. Under a weak key (appid, consumer_key, a
// provider's name) the value must look random (looksRandom) however it is
// written, so "appid=weather" survives.

// valueDelims end an unquoted value.
const valueDelims = "\"'`<>&;,()[]{}\\"

// matchKeyValue records the secret value whose separator sep is at s[i],
// if any, and returns where the search for sep may go on: past an
// unquoted value when it was redacted, so a long value is read once. A
// quoted value is searched too: its quote may close another's
// (token="\nAPI_TOKEN = "...").
func matchKeyValue(s string, i int, sep byte, out *spanList) int {
	n := len(out.spans)
	if matchKeyValueAt(s, i, sep, out) && len(out.spans) > n {
		return max(i+1, out.spans[len(out.spans)-1].end)
	}
	return i + 1
}

// matchKeyValueAt is matchKeyValue without the skip. It reports whether
// the value it read was unquoted.
func matchKeyValueAt(s string, i int, sep byte, out *spanList) (unquoted bool) {
	if s[i] != sep {
		return false
	}
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	prev := byte(0)
	if i > 0 {
		prev = s[i-1]
	}
	k, keyEnd := i+1, i
	if sep == '=' {
		switch {
		case next == '=' || prev == '=' || prev == '!' || prev == '<' || prev == '>':
			return false
		case next == '>':
			k++
		}
		keyEnd = operatorStart(s, i)
	} else if next == ':' || prev == ':' || next == '=' || strings.HasPrefix(s[k:], "//") {
		return false // "::", ":=" (read at its '='), "scheme://"
	}
	key := readKey(s, keyEnd)
	if key.class == keyNone {
		return false
	}
	vs := skipSpaces(s, k)
	tight := sep == '=' && vs == k
	if vs >= len(s) {
		return false
	}
	qs, qe, quoted := quotedValue(s, vs)
	if !quoted { // an unclosed quote: the value starts after it and may be a sentence's start
		switch {
		case s[vs] == '"' || s[vs] == '\'' || s[vs] == '`':
			vs, tight = vs+1, false
		case strings.HasPrefix(s[vs:], `\"`):
			vs, tight = vs+2, false
		}
	}
	if key.class == keyWeak && !quoted {
		// Bounded: a longer value is not random, and an unbounded read at
		// every separator of "a:a:a:..." would be quadratic.
		qs, qe = vs, unquotedEnd(s[:min(len(s), vs+maxRandomLen+1)], vs)
	}
	if matchClassValue(s, vs, qs, qe, quoted, key, out) {
		return !quoted
	}
	if quoted {
		v := s[qs:qe]
		if s[vs] == '`' && nonSpaceEnd(v, 0) < len(v) {
			return false // `a command`, whose output is the value
		}
		if t := trimSpaceRunes(v); t != "" && !isStandIn(t) && !isProse(v) {
			out.add(qs, qe, key.repl, KindSecret)
		}
		return false
	}
	ve := unquotedEnd(s, vs)
	v := s[vs:ve]
	if !tight && isNextKey(v, sep) {
		// "pass:\nProxy-Authorization: Basic …", "API_KEY=\nDEBUG=1":
		// the word is the next key, whose own value its separator
		// will be checked for.
		return false
	}
	if tight && v != "" && !isStandIn(v) || !tight && (looksSecret(v) || jsonNumberSecret(s, keyEnd, v)) {
		out.add(vs, ve, key.repl, KindSecret)
	}
	return true
}

// isNextKey reports whether an unquoted value read after white space is
// rather the next key: a word that ends with the separator, such as
// "DEBUG=" or "Proxy-Authorization:".
func isNextKey(v string, sep byte) bool {
	if len(v) < 2 || v[len(v)-1] != sep {
		return false
	}
	if sep == ':' {
		return true
	}
	for k := 0; k < len(v)-1; k++ {
		if c := v[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// quotedValue reports whether a quoted value starts at s[i] ('...', "...",
// `...` or the escaped \"...\" of a JSON string) and closes, and returns
// its content s[qs:qe].
func quotedValue(s string, i int) (qs, qe int, ok bool) {
	switch c := s[i]; c {
	case '"', '\'', '`':
		for x := i + 1; x < len(s); x++ {
			switch s[x] {
			case '\\':
				x++
			case c:
				return i + 1, x, true
			}
		}
	case '\\':
		if strings.HasPrefix(s[i:], `\"`) {
			if e := strings.Index(s[i+2:], `\"`); e >= 0 {
				return i + 2, i + 2 + e, true
			}
		}
	}
	return 0, 0, false
}

// valueEnds holds the ASCII bytes that end an unquoted value: white space,
// control bytes and valueDelims.
var valueEnds = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c <= ' '; c++ {
		t[c] = true
	}
	t[0x7f] = true
	for k := 0; k < len(valueDelims); k++ {
		t[valueDelims[k]] = true
	}
	return t
}()

// unquotedEnd returns the end of an unquoted value that starts at s[i]: the
// first white space or delimiter.
func unquotedEnd(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if valueEnds[c] {
				break
			}
			i++
		} else if spaceRuneAt(s, i) > 0 {
			break
		} else {
			i++
		}
	}
	return i
}

// trimSpaceRunes returns v without the white space and control runes at
// its ends.
func trimSpaceRunes(v string) string {
	start := skipSpaces(v, 0)
	return v[start:max(start, skipSpacesBack(v, len(v)))]
}

// nonSpaceEndIn is nonSpaceEnd bounded by lim.
func nonSpaceEndIn(s string, i, lim int) int {
	return min(nonSpaceEnd(s, i), lim)
}

// minNumericSecret is the fewest digits of a number that a quoted key's
// value must have to be taken for a secret: a PIN has 4.
const minNumericSecret = 4

// jsonNumberSecret reports whether v, the unquoted value of a strong key
// that ends before s[keyEnd], is a JSON number of a JSON member
// (`"password": 84512093`): the quoted key says the text is data, not a
// sentence such as "password: 8 characters", so a numeric credential is
// redacted although no letter makes it look random.
func jsonNumberSecret(s string, keyEnd int, v string) bool {
	j := skipSpacesBack(s, keyEnd)
	return j > 0 && s[j-1] == '"' && len(v) >= minNumericSecret && isDigits(v)
}
