package sanitize

import (
	"net/url"
	"strings"
)

// The secrets stage. Each finding becomes a typed, stable placeholder
// "[REDACTED:<family>]" and counts one KindSecret. The rule families live
// in the secret_*.go files: PEM blocks (secret_pem.go), URL and DSN
// credentials (secret_url.go), key/value and header secrets
// (secret_keyvalue.go, secret_assign.go, secret_header.go, secret_keys.go,
// secret_keys_weak.go), XML elements (secret_xml.go), name/value call
// arguments (secret_call.go), curl's -u (secret_curl.go), long options
// such as --password (secret_cli.go), SQL password
// literals (secret_sql.go), credentials
// after a bare "Bearer" (secret_bearer.go), provider token
// formats (secret_tokens.go, secret_tokens_infix.go and the provider
// families in secret_providers_*.go), and the stand-ins every rule leaves
// alone (secret_standin.go); the prefilter that runs them only where they
// can match is in secret_prefilter.go.

var configuredRepl = redacted("configured-secret")

// secretRules is the compiled secrets stage of a Sanitizer. It is immutable
// after newSecretRules and safe for concurrent use.
type secretRules struct {
	exact     []string // configured values and their URL-encoded forms
	tokens    *tokenIndex
	infix     []infixRule
	prefilter bool
	at        finder
	equals    finder
	colon     finder
	closeTag  finder
	callPairs [2]finder // `",` and `',`
	dash      finder    // the '-' of "-----BEGIN" and of curl's -u and --user
	quote     finder    // the opening quote of an SQL password literal
}

// newSecretRules compiles the secrets stage. exact are the values of
// WithSecrets; prefilter false makes every rule run at every position of
// the text (for tests and benchmarks).
func newSecretRules(exact []string, prefilter bool) *secretRules {
	r := &secretRules{
		tokens:    newTokenIndex(),
		infix:     infixRules(),
		prefilter: prefilter,
		at:        byteFinder('@', prefilter),
		equals:    byteFinder('=', prefilter),
		colon:     byteFinder(':', prefilter),
		closeTag:  stringFinder(closeTag, prefilter),
		callPairs: [2]finder{stringFinder(`",`, prefilter), stringFinder(`',`, prefilter)},
		dash:      byteFinder('-', prefilter),
		quote:     byteFinder('\'', prefilter),
	}
	seen := map[string]bool{}
	for _, v := range exact {
		for _, form := range []string{v, url.QueryEscape(v), url.PathEscape(v)} {
			if len(form) >= MinSecretLen && !seen[form] {
				seen[form] = true
				r.exact = append(r.exact, form)
			}
		}
	}
	return r
}

// redact returns s with its secrets replaced by placeholders, counting them
// in rep. When nothing is found it returns s itself.
func (r *secretRules) redact(s string, rep *Report) string {
	var out spanList
	r.matchDashes(s, &out)
	for i := r.at(s, 0); i >= 0; i = r.at(s, i+1) {
		matchUserinfo(s, i, &out)
	}
	for i := r.equals(s, 0); i >= 0; i = r.equals(s, i) {
		i = matchKeyValue(s, i, '=', &out)
	}
	for i := r.colon(s, 0); i >= 0; i = r.colon(s, i) {
		i = matchKeyValue(s, i, ':', &out)
	}
	for i := r.closeTag(s, 0); i >= 0; i = r.closeTag(s, i+1) {
		matchXMLElement(s, i, &out)
	}
	for i := r.quote(s, 0); i >= 0; i = r.quote(s, i+1) {
		if s[i] == '\'' {
			matchSQLPassword(s, i, &out)
		}
	}
	for _, f := range r.callPairs {
		for i := f(s, 0); i >= 0; i = f(s, i+1) {
			matchCallPair(s, i, &out)
		}
	}
	runs := r.matchTokens(s, &out)
	matchCookieLabels(s, runs, &out) // secret_cookie_label.go
	for _, v := range r.exact {
		for i := strings.Index(s, v); i >= 0; {
			out.add(i, i+len(v), configuredRepl, KindSecret)
			next := strings.Index(s[i+len(v):], v)
			if next < 0 {
				break
			}
			i += len(v) + next
		}
	}
	return out.apply(s, rep)
}

// matchDashes records the findings anchored at a '-': PEM blocks from
// their BEGIN or END line, and the credentials of curl commands. With the
// prefilter a curl command is read only when a -u or --user option
// follows it; without it, every one is.
func (r *secretRules) matchDashes(s string, out *spanList) {
	curlFrom := 0 // curl commands before curlFrom have been read
	for i := r.dash(s, 0); i >= 0; {
		next := i + 1
		switch {
		case strings.HasPrefix(s[i:], pemBegin):
			next = matchPEM(s, i, out)
		case strings.HasPrefix(s[i:], pemEnd):
			next = matchPEMEnd(s, i, out)
		case r.prefilter && isUserOption(s, i):
			curlFrom = matchCurlsBefore(s, i, curlFrom, out)
		case strings.HasPrefix(s[i:], "--"):
			matchSecretOption(s, i, out) // secret_cli.go
		}
		i = r.dash(s, next)
	}
	if !r.prefilter {
		for i := 0; i < len(s); i++ {
			matchCurl(s, i, out)
		}
	}
}

// matchTokens records the provider tokens of s, and the credentials that
// follow a bare "Bearer" (secret_bearer.go): with the prefilter only in the
// long runs without white space, else at every position. It returns the
// starts of the runs without white space long enough for a token (prose
// has none), which the cookie label rule reads too.
func (r *secretRules) matchTokens(s string, out *spanList) (runs []int) {
	if !r.prefilter {
		st := newTokenScan(s, out)
		for i := 0; i < len(s); {
			i = r.tokens.match(s, i, &st)
		}
		matchInfix(r.infix, s, 0, len(s), out)
		matchBareBearers(s, out)
		longRuns(s, func(start, end int) {
			if end-start >= minTokenLen {
				runs = append(runs, start)
			}
		})
		return runs
	}
	// The scan state is set up at the first run long enough to hold a
	// token: prose has none, and the setup is most of its cost there.
	var st tokenScan
	ready := false
	longRuns(s, func(start, end int) {
		if end-start < minTokenLen {
			return // a word of prose, too short for any token
		}
		if !ready {
			st, ready = newTokenScan(s, out), true
		}
		runs = append(runs, start)
		matchBareBearer(s, start, end, out)
		for i := start; i < end; {
			i = r.tokens.match(s, i, &st)
		}
		if end-start >= minInfixTokenLen {
			matchInfix(r.infix, s, start, end, out)
		}
	})
	return runs
}
