package sanitize

import "strings"

// The values of Authorization and Cookie headers, read after the key/value
// rule of secret_keyvalue.go found the header's name.

// matchCookieValue records a Cookie header value that starts at s[vs] (the
// content s[qs:qe] when quoted).
func matchCookieValue(s string, vs, qs, qe int, quoted bool, repl string, out *spanList) {
	if quoted {
		if w := s[qs:nonSpaceEndIn(s, qs, qe)]; cookieLike(w) {
			out.add(qs, qe, repl, KindSecret)
		}
	} else if w := s[vs:nonSpaceEnd(s, vs)]; cookieLike(w) {
		out.add(vs, redactEnd(s, vs), repl, KindSecret)
	}
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
	return w != "" && !isPlaceholder(w) && !isTemplate(w) && (strings.IndexByte(w, '=') > 0 || looksSecret(w))
}

// matchAuthValue records the credentials of an Authorization header value
// that starts at s[vs] (the content s[qs:qe] when quoted): the words after
// a known scheme, a first word that looks like a credential, or a second
// word that does. Stand-ins ("Bearer <token>", "Bearer $TOKEN", "Token
// ****") stay. The decision reads words only, never line ends, so it is
// the same before and after white space is collapsed.
func matchAuthValue(s string, vs, qs, qe int, quoted bool, repl string, out *spanList) {
	lim := len(s)
	if quoted {
		vs, lim = qs, qe
	}
	w1e := nonSpaceEndIn(s, vs, lim)
	w1 := s[vs:w1e]
	if w1 == "" || isPlaceholder(w1) || isStandIn(w1) {
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
		bare := strings.TrimRight(w2, "\"'`,;\\")
		if w2 != "" && !isPlaceholder(w2) && !isProseWord(w2) && !isStandIn(bare) {
			out.add(c, end(c), repl, KindSecret)
		}
	case looksSecret(w1):
		out.add(vs, end(vs), repl, KindSecret)
	case w2 != "" && len(w1) <= 32 && looksSecret(w2):
		out.add(c, end(c), repl, KindSecret)
	}
}
