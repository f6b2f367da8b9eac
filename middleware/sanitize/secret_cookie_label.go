package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Cookies under a label without a separator. An HTML page that echoes a
// request shows its cookies in a table: a cell with the name and a cell
// with the value ("<td>_session</td><td>Zm9v…</td>", Django's
// "<td>HTTP_COOKIE</td><td><pre>'_session=…'</pre></td>"). Reduced to
// text, the two cells read "_session Zm9v…", which the key/value rules,
// anchored at '=' and ':', never see. A session cookie's name (a name that
// ends in session, sessionid or sessid once lower-cased without '_', '-'
// and '.', such as _session, _myapp_session, laravel_session, PHPSESSID,
// JSESSIONID, ASP.NET_SessionId; or connect.sid) followed by white space
// and a value that looks like a credential loses the value, as
// "[REDACTED:session]" (unquoted, it must be at least minTokenLen bytes
// long, as session ids are: a line of shorter words is plain prose that
// Clean returns as it is); a Cookie, Set-Cookie or HTTP_COOKIE label followed
// by white space and name=value pairs loses the pairs, as
// "[REDACTED:cookie]". Prose ("the session expired", "Cookie missing")
// has no such value and stays.

var (
	sessionRepl = redacted("session")
	cookieRepl  = redacted("cookie")
)

// matchCookieLabels records the values under session-cookie names and
// cookie labels followed by white space. It starts from where such a
// value can begin, which prose rarely has: a run without white space long
// enough for a token, a name=value pair, a quote or a quote written as an
// entity; and reads the word before it, past white space and tags, as the
// label. (Searching for the labels instead would read every "session" and
// "possess" of a page.) A value right after a tag counts too.
//
// runs are the starts of the runs without white space long enough for a
// token, as matchTokens found them.
func matchCookieLabels(s string, runs []int, out *spanList) {
	last := -1 // the label word last read
	try := func(v int) {
		i := skipBackSpacesAndTags(s, v)
		if i > 0 && (s[i-1] == '"' || s[i-1] == '\'') {
			i-- // a quoted label: 'HTTP_COOKIE' '…'
		}
		if i == 0 || i == v && v < len(s) && s[v] > ' ' || !isLabelByte(s[i-1]) {
			return // no white space or tag between: not a label's value
		}
		ws := i - 1
		for ws > 0 && isLabelByte(s[ws-1]) {
			ws--
		}
		if ws != last {
			last = ws
			matchCookieLabelAt(s, i-1, out)
		}
	}
	for _, start := range runs {
		try(start)
	}
	prev := -1 // the last '=' read; the word up to it has been tried
	for i := strings.IndexByte(s, '='); i >= 0; {
		ws := i
		for ws > prev+1 && s[ws-1] > ' ' && s[ws-1] != '>' {
			ws--
		}
		if ws > prev+1 || prev < 0 {
			// A new word (or the first): its start is where a pair
			// begins. Another '=' of the same word adds nothing.
			try(ws)
		}
		prev = i
		next := strings.IndexByte(s[i+1:], '=')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	// A value right after a tag ("<td>_session</td><td>Zm9v…") starts a
	// cell in raw HTML, where no white space separates it from its label.
	for _, q := range [...]string{"\"", "'", "&#", "&quot;", ">"} {
		for i := strings.Index(s, q); i >= 0; {
			if q == ">" {
				try(i + 1)
			} else {
				try(i)
			}
			next := strings.Index(s[i+1:], q)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
}

// skipBackSpacesAndTags returns the last index <= i that follows white
// space and tags before i, as skipSpacesAndTags reads them forward.
func skipBackSpacesAndTags(s string, i int) int {
	for n := 0; n < maxSkippedTags; n++ {
		for i > 0 && isSpaceByte(s[i-1]) {
			i--
		}
		if i == 0 || s[i-1] != '>' {
			return i
		}
		from := max(0, i-maxSkippedTag)
		j := strings.LastIndexByte(s[from:i-1], '<')
		if j < 0 {
			return i
		}
		i = from + j
	}
	return i
}

// isLabelByte reports whether c may be part of a cookie's name or a header
// label.
func isLabelByte(c byte) bool { return isWordByte(c) || c == '-' || c == '.' }

// matchCookieLabelAt reads the word that holds s[k] as a label and records
// the value that follows it after white space, if any. It returns where
// the search may go on: past the word.
func matchCookieLabelAt(s string, k int, out *spanList) int {
	ws, we := k, k
	for ws > 0 && isLabelByte(s[ws-1]) {
		ws--
	}
	for we < len(s) && isLabelByte(s[we]) {
		we++
	}
	for we > ws && s[we-1] == '.' {
		we-- // a sentence's full stop
	}
	cookie, session := cookieLabel(s[ws:we])
	if !cookie && !session {
		return max(we, k+1)
	}
	le := we
	if le < len(s) && (s[le] == '"' || s[le] == '\'') && ws > 0 && s[ws-1] == s[le] {
		le++ // a quoted name: 'HTTP_COOKIE' '…'
	}
	vs := skipSpacesAndTags(s, le)
	if vs == le || vs >= len(s) || s[vs] == '=' || s[vs] == ':' {
		return max(we, k+1) // no white space, or a separator the key/value rules read
	}
	qs, qe, quoted := quotedValue(s, vs)
	switch {
	case cookie && quoted:
		if w := s[qs:nonSpaceEndIn(s, qs, qe)]; cookieLike(w) && strings.IndexByte(w, '=') > 0 {
			out.add(qs, qe, cookieRepl, KindSecret)
		}
	case cookie:
		if e := cookiePairsEnd(s, vs); e > vs {
			out.add(vs, e, cookieRepl, KindSecret)
		}
	case quoted:
		if v := trimSpaceRunes(s[qs:qe]); looksSecret(v) && !isProse(v) {
			out.add(qs, qe, sessionRepl, KindSecret)
		}
	default:
		ve := unquotedEnd(s, vs)
		if ve-vs >= minTokenLen && looksSecret(s[vs:ve]) {
			out.add(vs, ve, sessionRepl, KindSecret)
		}
	}
	return max(we, k+1)
}

// cookieLabel reports whether w names a Cookie header (cookie: Cookie,
// Set-Cookie, HTTP_COOKIE) or a session cookie (session).
func cookieLabel(w string) (cookie, session bool) {
	if len(w) < 3 || len(w) > maxKeyLen {
		return false, false
	}
	var b [maxKeyLen]byte
	n := 0
	for k := 0; k < len(w); k++ {
		if c := w[k]; c != '_' && c != '-' && c != '.' {
			b[n] = asciifold.Lower(c)
			n++
		}
	}
	norm := string(b[:n])
	switch norm {
	case "cookie", "setcookie", "httpcookie", "cookies":
		return true, false
	case "connectsid":
		return false, true
	}
	for _, sfx := range [...]string{"session", "sessionid", "sessid"} {
		if strings.HasSuffix(norm, sfx) {
			return false, true
		}
	}
	return false, false
}

// cookiePairsEnd returns the end of the name=value pairs that start at
// s[i], separated by "; " ("a=1; _session=Zm9v"), or i when the first word
// is no pair.
func cookiePairsEnd(s string, i int) int {
	end := i
	for p := i; p < len(s); {
		e := nonSpaceEnd(s, p)
		w := s[p:e]
		if strings.IndexByte(w, '=') <= 0 || isPlaceholder(w) || isTemplate(w) {
			break
		}
		end = e
		if !strings.HasSuffix(w, ";") {
			break
		}
		p = skipSpaces(s, e)
	}
	for end > i && s[end-1] == ';' {
		end--
	}
	return end
}

// maxSkippedTags bounds the tags skipSpacesAndTags skips, and
// maxSkippedTag the length of each.
const (
	maxSkippedTags = 6
	maxSkippedTag  = 128
)

// skipSpacesAndTags returns the first index >= i past white space, tags
// ("</td><td class=\"code\"><pre>") and a quote written as an entity
// ("&#x27;", "&#39;", "&quot;").
func skipSpacesAndTags(s string, i int) int {
	for n := 0; n < maxSkippedTags; n++ {
		i = skipSpaces(s, i)
		if i >= len(s) {
			return i
		}
		if s[i] == '<' {
			e := strings.IndexByte(s[i:min(len(s), i+maxSkippedTag)], '>')
			if e < 0 {
				return i
			}
			i += e + 1
			continue
		}
		for _, q := range [...]string{"&#x27;", "&#39;", "&quot;", "&#34;"} {
			if strings.HasPrefix(s[i:], q) {
				return i + len(q)
			}
		}
		return i
	}
	return i
}
