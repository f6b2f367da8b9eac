package sanitize

import "strings"

// The user and password of curl's -u and --user options: curl -u
// alice:s3cret, curl --user "api:key-123", curl -u "$USER:$PASS". The
// rule reads a curl command's arguments from the word "curl", word by
// word, with shell quoting, up to a shell separator, the next "curl",
// maxCurlWords words or maxCurlBytes bytes; the prefilter starts it only
// before a -u or --user option. Line breaks count as any other white space, so
// collapsing white space never changes a decision. The password becomes
// [REDACTED:password]; a user with an empty password ("sk_key:") is the
// credential itself. Stand-ins stay: variables, placeholders such as
// <password> and [PASSWORD], and the words of documentation (user:pass).

const (
	curlCommand  = "curl"
	maxCurlWords = 64   // the words of a command read
	maxCurlBytes = 4096 // how far from "curl" its words may start
	maxShellWord = 1024
)

var (
	curlPasswordRepl   = redacted("password")
	curlCredentialRepl = redacted("credential")
)

// curlStandIns are passwords of documentation and tests.
var curlStandIns = []string{
	"pass", "password", "passwd", "pwd", "secret", "token", "test", "changeme", "changeit",
	"example", "apikey", "api_key", "key",
}

// matchCurl records the credentials of the curl command that starts at
// s[i], if any.
func matchCurl(s string, i int, out *spanList) {
	if !strings.HasPrefix(s[i:], curlCommand) || i > 0 && isWordByte(s[i-1]) {
		return
	}
	p := i + len(curlCommand)
	if p < len(s) && spaceRuneAt(s, p) == 0 {
		return // "curling", "curl.exe"
	}
	for w := 0; w < maxCurlWords; w++ {
		p = skipSpaces(s, p)
		if p >= len(s) || p-i > maxCurlBytes || strings.IndexByte(";|&`)#", s[p]) >= 0 {
			break
		}
		we := shellWordEnd(s, p)
		word := s[p:we]
		switch {
		case word == curlCommand:
			return // the next command
		case word == "-u" || word == "--user":
			as := skipSpaces(s, we)
			if as >= len(s) {
				return
			}
			we = shellWordEnd(s, as)
			matchUserPassword(s, as, we, out)
		case strings.HasPrefix(word, "--user="):
			matchUserPassword(s, p+len("--user="), we, out)
		case len(word) > 2 && strings.HasPrefix(word, "-u") && word[2] != '-':
			matchUserPassword(s, p+2, we, out)
		}
		p = we
	}
}

// matchCurlsBefore runs, for the -u or --user option at s[opt], each
// curl command that starts within maxCurlBytes before it and at or after
// from, and returns where the next option's search starts: each command
// is read once.
func matchCurlsBefore(s string, opt, from int, out *spanList) int {
	for c := max(from, opt-maxCurlBytes); c < opt; c++ {
		k := strings.Index(s[c:opt], curlCommand)
		if k < 0 {
			break
		}
		c += k
		matchCurl(s, c, out)
	}
	return opt
}

// isUserOption reports whether the '-' at s[i] starts a word "-u…" or
// "--user…", which may be curl's option.
func isUserOption(s string, i int) bool {
	return (i == 0 || spaceRuneBefore(s, i) > 0) &&
		(strings.HasPrefix(s[i:], "-u") || strings.HasPrefix(s[i:], "--user"))
}

// shellWordEnd returns the end of the shell word that starts at s[p]: the
// first white space or command separator (';', '|', "&&") outside quotes,
// at most maxShellWord bytes on.
func shellWordEnd(s string, p int) int {
	lim := min(len(s), p+maxShellWord)
	var quote byte
	for k := p; k < lim; k++ {
		c := s[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				k++
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '\\':
			k++
		case k > p && (c == ';' || c == '|' || strings.HasPrefix(s[k:], "&&")):
			return k
		case spaceRuneAt(s, k) > 0:
			return k
		}
	}
	return lim
}

// matchUserPassword records the password of the -u argument s[as:ae]
// ("user:password", quoted in parts or whole), or the user when the
// password is empty.
func matchUserPassword(s string, as, ae int, out *spanList) {
	arg := s[as:ae]
	c := userColon(arg)
	if c < 0 || isTemplate(arg) {
		return
	}
	us, ue := unquotePart(s, as, as+c)
	ps, pe := unquotePart(s, as+c+1, ae)
	user, pw := s[us:ue], s[ps:pe]
	switch {
	case pw == "" && user != "":
		if looksSecret(user) {
			out.add(us, ue, curlCredentialRepl, KindSecret)
		}
	case pw != "" && !isPlaceholder(pw) && !isStandIn(pw) && !isCurlStandIn(user, pw):
		out.add(ps, pe, curlPasswordRepl, KindSecret)
	}
}

// userColon returns the index of the ':' that ends the user in arg, or
// -1: the first one outside brackets, so a placeholder such as
// "[REDACTED:credential]:" keeps its own.
func userColon(arg string) int {
	depth := 0
	for k := 0; k < len(arg); k++ {
		switch arg[k] {
		case '[':
			depth++
		case ']':
			depth = max(0, depth-1)
		case ':':
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// unquotePart returns s[a:b] without a quote that opens or closes it.
func unquotePart(s string, a, b int) (int, int) {
	if a < b && (s[a] == '"' || s[a] == '\'') {
		a++
	}
	if a < b && (s[b-1] == '"' || s[b-1] == '\'') {
		b--
	}
	return a, b
}

// isCurlStandIn reports whether pw is a password of documentation: a word
// such as "password" or "token", the user repeated ("test:test"), or a
// placeholder in brackets ("[PASSWORD]"). A password cut by the output cap
// is one when its start may be one.
func isCurlStandIn(user, pw string) bool {
	if pw[0] == '[' {
		return true
	}
	base, cut := strings.CutSuffix(pw, truncationMark)
	same := func(w string) bool {
		if cut {
			return len(base) <= len(w) && strings.EqualFold(base, w[:len(base)])
		}
		return strings.EqualFold(pw, w)
	}
	if same(user) {
		return true
	}
	for _, w := range curlStandIns {
		if same(w) {
			return true
		}
	}
	return false
}
