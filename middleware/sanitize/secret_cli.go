package sanitize

import "strings"

// Secrets given as long command-line options: docker login --password
// Zq8v…, mongosh --password …, psql … --token …. Error messages and logs
// quote the command that failed. The "--password=value" form is the
// key/value rule's; this rule reads the value written as the next word.

// secretOptions are the long options, without their dashes, whose next
// word is a credential.
var secretOptions = []string{
	"password", "passwd", "pass", "pw", "token", "api-key", "apikey", "api-token",
	"access-token", "auth-token", "secret", "client-secret", "secret-key",
	"access-key", "secret-access-key",
}

var optionRepl = redacted("password")

// matchSecretOption records the value of the long option that starts at
// s[i] ("--password"), when the option begins a word, is one of
// secretOptions in any case, and is followed by white space and a word
// that is no other option, path, URL, variable or stand-in.
func matchSecretOption(s string, i int, out *spanList) {
	if !strings.HasPrefix(s[i:], "--") || i > 0 && spaceRuneBefore(s, i) == 0 && s[i-1] != '"' && s[i-1] != '\'' {
		return
	}
	n := i + 2
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z' || s[n] == '-') {
		n++
	}
	if !isSecretOption(s[i+2 : n]) {
		return
	}
	as := skipSpaces(s, n)
	if as == n || as >= len(s) {
		return // "--password=…" or nothing after it
	}
	ae := shellWordEnd(s, as)
	vs, ve := as, ae
	if ve-vs >= 2 && (s[vs] == '"' || s[vs] == '\'') && s[ve-1] == s[vs] {
		vs, ve = vs+1, ve-1
	}
	v := s[vs:ve]
	if v == "" || v[0] == '-' || v[0] == '/' || v[0] == '~' || strings.HasPrefix(v, "./") ||
		strings.Contains(v, "://") || isPlaceholder(v) || isStandIn(v) || isTemplate(v) {
		return
	}
	out.add(vs, ve, optionRepl, KindSecret)
}

// isSecretOption reports whether name, in any case, is one of
// secretOptions.
func isSecretOption(name string) bool {
	for _, o := range secretOptions {
		if strings.EqualFold(name, o) {
			return true
		}
	}
	return false
}
