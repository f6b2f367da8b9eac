package sanitize

import "strings"

// Key/value secrets, anchored at their separator ('=' or ':'): query
// strings and form bodies (password=...), DSN key=value pairs, JDBC
// ;password=..., JSON ("token": "..."), YAML (secret: ...), Ruby hashes
// (password => ...) and HTTP headers (Authorization: Bearer ...).
//
// How sure a value must look depends on how it is written. Quoted values
// and tight assignments (key=value) are secrets unless empty, a stand-in
// (null, ***) or, when quoted, a sentence. Values after "key: " or
// "key = " must look like a credential (looksSecret), so prose such as
// "password: must be 12 characters" survives.

// valueDelims end an unquoted value.
const valueDelims = "\"'`<>&;,()[]{}\\"

// matchKeyValue records the secret value whose separator sep is at s[i],
// if any, and returns where the search for sep may go on: past the value
// when it was redacted, so a long value is read once.
func matchKeyValue(s string, i int, sep byte, out *spanList) int {
	n := len(out.spans)
	matchKeyValueAt(s, i, sep, out)
	if len(out.spans) > n {
		return max(i+1, out.spans[len(out.spans)-1].end)
	}
	return i + 1
}

// matchKeyValueAt is matchKeyValue without the skip.
func matchKeyValueAt(s string, i int, sep byte, out *spanList) {
	if s[i] != sep {
		return
	}
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	prev := byte(0)
	if i > 0 {
		prev = s[i-1]
	}
	k := i + 1
	if sep == '=' {
		switch {
		case next == '=' || prev == '=' || prev == '!' || prev == '<' || prev == '>':
			return
		case next == '>':
			k++
		}
	} else if next == ':' || prev == ':' || strings.HasPrefix(s[k:], "//") {
		return
	}
	class, repl := readKey(s, i)
	if class == keyNone {
		return
	}
	vs := skipSpaces(s, k)
	tight := sep == '=' && vs == k
	if vs >= len(s) {
		return
	}
	qs, qe, quoted := quotedValue(s, vs)
	if !quoted { // an unclosed quote: the value starts after it
		switch {
		case s[vs] == '"' || s[vs] == '\'':
			vs++
		case strings.HasPrefix(s[vs:], `\"`):
			vs += 2
		}
	}
	switch class {
	case keyAuth:
		matchAuthValue(s, vs, qs, qe, quoted, repl, out)
	case keyCookie:
		if quoted {
			if w := s[qs:nonSpaceEndIn(s, qs, qe)]; cookieLike(w) {
				out.add(qs, qe, repl, KindSecret)
			}
		} else if w := s[vs:nonSpaceEnd(s, vs)]; cookieLike(w) {
			out.add(vs, redactEnd(s, vs), repl, KindSecret)
		}
	default:
		if quoted {
			v := s[qs:qe]
			if v != "" && !isNullish(v) && !isProse(v) {
				out.add(qs, qe, repl, KindSecret)
			}
			return
		}
		ve := unquotedEnd(s, vs)
		v := s[vs:ve]
		if sep == ':' && strings.HasSuffix(v, ":") {
			// "pass:\nProxy-Authorization: Basic …": the word is the next
			// key, whose own value the ':' after it will be checked for.
			return
		}
		if tight && v != "" && !isNullish(v) || !tight && looksSecret(v) {
			out.add(vs, ve, repl, KindSecret)
		}
	}
}

// readKey reads the key that ends before the separator at s[i], skipping
// white space and a closing quote (also an escaped one, \"), and
// classifies it.
func readKey(s string, i int) (keyClass, string) {
	j := skipSpacesBack(s, i)
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		j--
		if j > 0 && s[j-1] == '\\' {
			j--
		}
	}
	var buf [maxKeyLen]byte
	n := maxKeyLen
	k := j
scan:
	for ; k > 0 && n > 0; k-- {
		switch c := s[k-1]; {
		case c == '_' || c == '-' || c == '.':
		case isAlnumByte(c):
			n--
			buf[n] = lowerByte(c)
		default:
			break scan
		}
	}
	if n == maxKeyLen {
		return keyNone, ""
	}
	whole := k == 0 || !isKeyByte(s[k-1])
	return classifyKey(buf[n:], whole)
}

// isKeyByte reports whether c may appear in a key.
func isKeyByte(c byte) bool { return isAlnumByte(c) || c == '_' || c == '-' || c == '.' }

// quotedValue reports whether a quoted value starts at s[i] ('...', "..."
// or the escaped \"...\" of a JSON string) and closes, and returns its
// content s[qs:qe].
func quotedValue(s string, i int) (qs, qe int, ok bool) {
	switch c := s[i]; c {
	case '"', '\'':
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

// unquotedEnd returns the end of an unquoted value that starts at s[i]: the
// first white space or delimiter.
func unquotedEnd(s string, i int) int {
	for i < len(s) && spaceRuneAt(s, i) == 0 && strings.IndexByte(valueDelims, s[i]) < 0 {
		i++
	}
	return i
}

// nonSpaceEndIn is nonSpaceEnd bounded by lim.
func nonSpaceEndIn(s string, i, lim int) int {
	return min(nonSpaceEnd(s, i), lim)
}

// redactEnd returns where the redaction of a header value that starts at
// s[i] ends: the end of its line, or at least of its first word.
func redactEnd(s string, i int) int {
	if e := lineBreakAt(s, i); e > i {
		return e
	}
	return nonSpaceEnd(s, i)
}

// cookieLike reports whether the first word of a Cookie header value
// looks like a cookie (name=value) or a credential.
func cookieLike(w string) bool {
	return w != "" && !isPlaceholder(w) && (strings.IndexByte(w, '=') > 0 || looksSecret(w))
}

// matchAuthValue records the credentials of an Authorization header value
// that starts at s[vs] (the content s[qs:qe] when quoted): the words after
// a known scheme, a first word that looks like a credential, or a second
// word that does. The decision reads words only, never line ends, so it is
// the same before and after white space is collapsed.
func matchAuthValue(s string, vs, qs, qe int, quoted bool, repl string, out *spanList) {
	lim := len(s)
	if quoted {
		vs, lim = qs, qe
	}
	w1e := nonSpaceEndIn(s, vs, lim)
	w1 := s[vs:w1e]
	if w1 == "" || isPlaceholder(w1) {
		return
	}
	end := func(start int) int {
		if quoted {
			return lim
		}
		return redactEnd(s, start)
	}
	c := min(skipSpaces(s, w1e), lim)
	w2 := s[c:nonSpaceEndIn(s, c, lim)]
	switch {
	case isAuthScheme(w1):
		if w2 != "" && !isPlaceholder(w2) && !isProseWord(w2) {
			out.add(c, end(c), repl, KindSecret)
		}
	case looksSecret(w1):
		out.add(vs, end(vs), repl, KindSecret)
	case w2 != "" && len(w1) <= 32 && looksSecret(w2):
		out.add(c, end(c), repl, KindSecret)
	}
}
