package sanitize

import (
	"slices"
	"strings"
)

// Provider token formats. A format is a literal prefix ("ghp_", "xoxb-",
// "AKIA") and a body of parts: runs of one alphabet's bytes with length
// bounds, and literal separators. The formats are facts from the
// providers' documentation, listed by provider family in the
// secret_providers_*.go files; this file matches them. Formats whose
// literal is not at the start (Azure client secrets "…Q~…", Telegram bot
// tokens "<digits>:A…") are matched around that literal, in
// secret_tokens_infix.go.
//
// A token starts at a word boundary and ends at the end of its last run,
// where no letter or digit follows. Its body must not be a stand-in such
// as "xxxx…" or "abcdef…" (isDummyBody), unless its prefix says it is a
// live credential (secret_providers_live.go).

// maxTokenParts bounds the parts of a token body, so the scan state can
// cache one run per part.
const maxTokenParts = 8

// bodyWindow is how much of a token body the stand-in and mixed-case
// checks read, so a candidate costs constant time beyond its runs.
const bodyWindow = 64

// tokenPart is one part of a token body: the literal lit, or a run of
// bytes of alpha at least min and at most max long (max 0: unbounded).
type tokenPart struct {
	lit      string
	alpha    alphabet
	min, max int
}

// fixed is a part of exactly n bytes of a.
func fixed(a alphabet, n int) tokenPart { return tokenPart{alpha: a, min: n, max: n} }

// between is a part of min to max bytes of a.
func between(a alphabet, min, max int) tokenPart { return tokenPart{alpha: a, min: min, max: max} }

// atLeast is a part of n or more bytes of a.
func atLeast(a alphabet, n int) tokenPart { return tokenPart{alpha: a, min: n} }

// lit is a literal part, such as a "." between two runs.
func lit(s string) tokenPart { return tokenPart{lit: s} }

// tokenFamily is the format of one kind of token, under one or more
// prefixes, and the placeholder that replaces it.
type tokenFamily struct {
	family     string
	prefixes   []string
	parts      []tokenPart
	classes    int  // how many of upper case, lower case and digits the body must hold
	keepPrefix bool // redact only the body (the path of a webhook URL)
	live       bool // the prefix says "live credential": no stand-in check (secret_providers_live.go)
}

// fam returns the family of tokens with the prefixes and body parts.
func fam(family string, prefixes []string, parts ...tokenPart) tokenFamily {
	return tokenFamily{family: family, prefixes: prefixes, parts: parts}
}

// pre lists prefixes.
func pre(prefixes ...string) []string { return prefixes }

// mixedCase returns f requiring two of upper case, lower case and digits.
func (f tokenFamily) mixedCase() tokenFamily { f.classes = 2; return f }

// allClasses returns f requiring upper case, lower case and digits.
func (f tokenFamily) allClasses() tokenFamily { f.classes = 3; return f }

// bodyOnly returns f redacting only the body, keeping the prefix.
func (f tokenFamily) bodyOnly() tokenFamily { f.keepPrefix = true; return f }

// tokenRule is one prefix of a family, ready to match.
type tokenRule struct {
	prefix     string
	parts      []tokenPart
	classes    int
	keepPrefix bool
	live       bool // no stand-in or character-class check
	hostLike   bool // the prefix holds a '.', so a '.' may come before it
	repl       string
}

// tokenFamilies returns every provider token format.
func tokenFamilies() []tokenFamily {
	return slices.Concat(aiTokens(), cloudTokens(), devTokens(), messagingTokens(), paymentTokens(), saasTokens(),
		liveTokens())
}

// tokenRuleList returns the rules of tokenFamilies, one per prefix. Within
// one first byte a longer prefix comes first, so "sk-ant-" is tried
// before "sk-".
func tokenRuleList() []tokenRule {
	var rules []tokenRule
	for _, f := range tokenFamilies() {
		for _, p := range f.prefixes {
			rules = append(rules, tokenRule{prefix: p, parts: f.parts, classes: f.classes,
				keepPrefix: f.keepPrefix, live: f.live, hostLike: strings.IndexByte(p, '.') >= 0, repl: redacted(f.family)})
		}
	}
	slices.SortStableFunc(rules, func(a, b tokenRule) int { return len(b.prefix) - len(a.prefix) })
	return rules // TestTokenRulesFitPrefilter checks each against minTokenLen
}

// tokenIndex holds the token rules by the first byte of their prefix.
type tokenIndex [256][]tokenRule

// newTokenIndex builds the index of tokenRuleList.
func newTokenIndex() *tokenIndex {
	var idx tokenIndex
	for _, r := range tokenRuleList() {
		idx[r.prefix[0]] = append(idx[r.prefix[0]], r)
	}
	return &idx
}

// match records the provider token that starts at s[i], if any, and
// returns the index where the search may go on. A token starts after a
// byte that is not a letter or digit, nor a '.' unless its prefix is a
// host name's (a file's ".ico-…" is no Infracost token). A '_' before it
// does not protect it: an identifier built around a key
// ("req_sk_live_…", "pay_ghp_…") still carries the key whole. The scan state
// keeps the work linear when candidates share one long run of token
// bytes.
func (idx *tokenIndex) match(s string, i int, st *tokenScan) int {
	rules := idx[s[i]]
	if len(rules) == 0 || i > 0 && isAlnumByte(s[i-1]) {
		return i + 1
	}
	afterDot := i > 0 && s[i-1] == '.'
	for k := range rules {
		r := &rules[k]
		if !strings.HasPrefix(s[i:], r.prefix) || afterDot && !r.hostLike {
			continue
		}
		body := i + len(r.prefix)
		end, ok := st.matchBody(r.parts, body)
		if !ok || cutToken(s, end) || !r.live && !bodyPasses(s[body:min(end, body+bodyWindow)], r.classes) {
			continue
		}
		start := i
		if r.keepPrefix {
			start = body
		}
		st.out.add(start, end, r.repl, KindSecret)
		return end
	}
	return i + 1
}

// bodyPasses applies the checks every token body must pass to the window
// w of its first bytes: no stand-in, and the character classes its format
// needs.
func bodyPasses(w string, classes int) bool {
	return !isDummyBody(w) && charClasses(w) >= classes
}

// charClasses counts which of upper case, lower case and digits occur in w.
func charClasses(w string) int {
	var up, lo, dig int
	for k := 0; k < len(w); k++ {
		switch c := w[k]; {
		case c >= 'A' && c <= 'Z':
			up = 1
		case c >= 'a' && c <= 'z':
			lo = 1
		case isDigitByte(c):
			dig = 1
		}
	}
	return up + lo + dig
}

// tokenScan is the state of one search for tokens in s. It remembers, for
// each alphabet and part position, the last run it read, so candidates
// inside one long run of token bytes (an attacker's "sk-sk-sk-...") cost
// constant time each.
type tokenScan struct {
	s     string
	out   *spanList
	cache [numAlphabets][maxTokenParts]struct{ from, end int }
}

// newTokenScan returns the scan state of s.
func newTokenScan(s string, out *spanList) tokenScan {
	st := tokenScan{s: s, out: out}
	for a := range st.cache {
		for k := range st.cache[a] {
			st.cache[a][k].from = 1 // an empty cache: from > end
		}
	}
	return st
}

// runEnd returns the end of the run of a's bytes that starts at p, read
// as part k of a body.
func (st *tokenScan) runEnd(a alphabet, k, p int) int {
	c := &st.cache[a][k]
	if p >= c.from && p <= c.end {
		return c.end
	}
	e := p
	for e < len(st.s) && inAlphabet(a, st.s[e]) {
		e++
	}
	c.from, c.end = p, e
	return e
}

// matchBody matches the parts of a token body from s[p] and returns its
// end. Dots that end the last run end a sentence, not the token.
func (st *tokenScan) matchBody(parts []tokenPart, p int) (int, bool) {
	s := st.s
	for k, pt := range parts {
		if pt.lit != "" {
			if !strings.HasPrefix(s[p:], pt.lit) {
				return 0, false
			}
			p += len(pt.lit)
			continue
		}
		e := st.runEnd(pt.alpha, k, p)
		if k == len(parts)-1 {
			for e > p && s[e-1] == '.' {
				e--
			}
		}
		if e-p < pt.min || pt.max > 0 && e-p > pt.max {
			return 0, false
		}
		p = e
	}
	if p < len(s) && isAlnumByte(s[p]) {
		return 0, false
	}
	return p, true
}
