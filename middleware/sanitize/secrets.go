package sanitize

import (
	"net/url"
	"strings"
)

// The secrets stage. Each finding becomes a typed, stable placeholder
// "[REDACTED:<family>]" and counts one KindSecret. The rule families live
// in the secret_*.go files: PEM blocks (secret_pem.go), URL and DSN
// credentials (secret_url.go), key/value and header secrets
// (secret_keyvalue.go, secret_keys.go), provider token formats
// (secret_tokens.go); the prefilter that runs them only where they can
// match is in secret_prefilter.go.

var configuredRepl = redacted("configured-secret")

// secretRules is the compiled secrets stage of a Sanitizer. It is immutable
// after newSecretRules and safe for concurrent use.
type secretRules struct {
	exact     []string // configured values and their URL-encoded forms
	tokens    *tokenIndex
	prefilter bool
	pem       finder
	at        finder
	equals    finder
	colon     finder
}

// newSecretRules compiles the secrets stage. exact are the values of
// WithSecrets; prefilter false makes every rule run at every position of
// the text (for tests and benchmarks).
func newSecretRules(exact []string, prefilter bool) *secretRules {
	r := &secretRules{
		tokens:    newTokenIndex(),
		prefilter: prefilter,
		pem:       stringFinder(pemBegin, prefilter),
		at:        byteFinder('@', prefilter),
		equals:    byteFinder('=', prefilter),
		colon:     byteFinder(':', prefilter),
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
	for i := r.pem(s, 0); i >= 0; i = r.pem(s, i) {
		i = matchPEM(s, i, &out)
	}
	for i := r.at(s, 0); i >= 0; i = r.at(s, i+1) {
		matchUserinfo(s, i, &out)
	}
	for i := r.equals(s, 0); i >= 0; i = r.equals(s, i) {
		i = matchKeyValue(s, i, '=', &out)
	}
	for i := r.colon(s, 0); i >= 0; i = r.colon(s, i) {
		i = matchKeyValue(s, i, ':', &out)
	}
	r.matchTokens(s, &out)
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

// matchTokens records the provider tokens of s: with the prefilter only in
// the long runs without white space, else at every position.
func (r *secretRules) matchTokens(s string, out *spanList) {
	st := newTokenScan(s, out)
	if !r.prefilter {
		for i := 0; i < len(s); {
			i = r.tokens.match(s, i, &st)
		}
		return
	}
	longRuns(s, func(start, end int) {
		for i := start; i < end; {
			i = r.tokens.match(s, i, &st)
		}
	})
}
