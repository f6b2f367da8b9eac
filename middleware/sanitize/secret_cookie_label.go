package sanitize

import "strings"

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

// cookieLabelKeys are the strings, in lower and upper case, one of which
// every label of this rule holds.
var cookieLabelKeys = [...]string{"sess", "SESS", "Sess", "ookie", "OOKIE", ".sid"}

// matchCookieLabels records the values under session-cookie names and
// cookie labels followed by white space, searching only where one of
// cookieLabelKeys occurs.
func matchCookieLabels(s string, out *spanList) {
	for _, key := range cookieLabelKeys {
		for from := 0; ; {
			k := strings.Index(s[from:], key)
			if k < 0 {
				break
			}
			k += from
			from = matchCookieLabelAt(s, k, out)
		}
	}
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
			b[n] = lowerByte(c)
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
