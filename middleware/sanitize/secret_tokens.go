package sanitize

import "strings"

// Provider token formats: a literal prefix, then a body of a known alphabet
// and length. Facts from the providers' documentation:
//
//   - AWS access key ids: a four-letter type prefix (AKIA, ASIA, AGPA, ...)
//     and 16 upper-case letters and digits;
//   - GitHub: ghp_, gho_, ghu_, ghs_, ghr_ and 36 letters and digits;
//     fine-grained github_pat_ tokens;
//   - GitLab personal, deploy and runner tokens: glpat-, gldt-, glrt-;
//   - Slack: xoxb-, xoxp-, xoxa-, xoxr-, xoxs- tokens and incoming webhook
//     URLs under hooks.slack.com/services/;
//   - Stripe secret and restricted keys sk_live_, sk_test_, rk_live_,
//     rk_test_, and webhook signing secrets whsec_;
//   - Google API keys: AIza and 35 letters, digits, '-' and '_';
//   - OpenAI keys sk-... and sk-proj-...; Anthropic keys sk-ant-...;
//   - Twilio account SIDs AC and API key SIDs SK, each with 32 hex digits;
//   - SendGrid keys SG.<22>.<43>; npm tokens npm_ and 36; Hugging Face
//     tokens hf_ and 34 or more letters;
//   - JSON Web Tokens: three base64url segments, the first one a JSON
//     object, so it starts with "eyJ".

// Alphabets of token bodies.
const (
	alphaAlnum       = iota // A-Z a-z 0-9
	alphaURL                // A-Z a-z 0-9 - _
	alphaUpperNum           // A-Z 0-9
	alphaLowerHex           // 0-9 a-f
	alphaWord               // A-Z a-z 0-9 _
	alphaURLDot             // A-Z a-z 0-9 - _ .
	alphaWebhookPath        // A-Z a-z 0-9 _ /
	numAlphabets
)

// inAlphabet reports whether c belongs to the alphabet a.
func inAlphabet(a int, c byte) bool {
	switch a {
	case alphaAlnum:
		return isAlnumByte(c)
	case alphaURL:
		return isAlnumByte(c) || c == '-' || c == '_'
	case alphaUpperNum:
		return c >= 'A' && c <= 'Z' || isDigitByte(c)
	case alphaLowerHex:
		return isDigitByte(c) || c >= 'a' && c <= 'f'
	case alphaWord:
		return isWordByte(c)
	case alphaURLDot:
		return isAlnumByte(c) || c == '-' || c == '_' || c == '.'
	case alphaWebhookPath:
		return isWordByte(c) || c == '/'
	}
	return false
}

// Extra checks a token body must pass.
const (
	checkNone  = iota
	checkMixed // at least two of upper case, lower case, digits
	checkJWT   // two dots, segments of base64url
	checkSendGrid
)

// tokenRule is one provider token format.
type tokenRule struct {
	prefix     string
	alphabet   int
	minBody    int
	check      int
	keepPrefix bool // redact only the body (webhook URLs)
	repl       string
}

// tokenRuleList returns the token formats. Within one first byte, a longer
// prefix comes before a shorter one it extends ("sk-ant-" before "sk-").
func tokenRuleList() []tokenRule {
	var rules []tokenRule
	add := func(family string, alphabet, minBody, check int, prefixes ...string) {
		for _, p := range prefixes {
			rules = append(rules, tokenRule{prefix: p, alphabet: alphabet, minBody: minBody, check: check, repl: redacted(family)})
		}
	}
	add("aws-access-key-id", alphaUpperNum, 16, checkNone,
		"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA")
	add("aws-access-key-id", alphaUpperNum, 17, checkNone, "A3T")
	add("github-token", alphaAlnum, 36, checkNone, "ghp_", "gho_", "ghu_", "ghs_", "ghr_")
	add("github-token", alphaWord, 22, checkNone, "github_pat_")
	add("gitlab-token", alphaURL, 20, checkNone, "glpat-", "gldt-", "glrt-")
	add("slack-token", alphaURL, 10, checkNone, "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-")
	add("stripe-key", alphaAlnum, 16, checkNone, "sk_live_", "sk_test_", "rk_live_", "rk_test_")
	add("stripe-webhook-secret", alphaAlnum, 16, checkNone, "whsec_")
	add("google-api-key", alphaURL, 35, checkNone, "AIza")
	add("anthropic-key", alphaURL, 20, checkNone, "sk-ant-")
	add("openai-key", alphaURL, 20, checkMixed, "sk-")
	add("twilio-account-sid", alphaLowerHex, 32, checkNone, "AC")
	add("twilio-api-key", alphaLowerHex, 32, checkNone, "SK")
	add("sendgrid-key", alphaURLDot, 60, checkSendGrid, "SG.")
	add("npm-token", alphaAlnum, 36, checkNone, "npm_")
	add("huggingface-token", alphaAlnum, 34, checkMixed, "hf_")
	add("jwt", alphaURLDot, 12, checkJWT, "eyJ")
	rules = append(rules, tokenRule{prefix: "hooks.slack.com/services/", alphabet: alphaWebhookPath,
		minBody: 20, keepPrefix: true, repl: redacted("slack-webhook")})
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
// returns the index where the search may go on. The scan state keeps the
// work linear when candidates share one long run of token bytes.
func (idx *tokenIndex) match(s string, i int, st *tokenScan) int {
	rules := idx[s[i]]
	if len(rules) == 0 || i > 0 && isWordByte(s[i-1]) {
		return i + 1
	}
	for _, r := range rules {
		if len(s)-i < len(r.prefix) || s[i:i+len(r.prefix)] != r.prefix {
			continue
		}
		body := i + len(r.prefix)
		end := st.runEnd(r.alphabet, body)
		if end-body < r.minBody || !st.bodyPasses(r.check, r.alphabet, body, end) {
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

// tokenScan is the state of one search for tokens in s. It remembers, for
// each alphabet, the last run of its bytes, and the next dot, so that
// candidates inside one long run (an attacker's "sk-sk-sk-...") cost
// constant time each.
type tokenScan struct {
	s        string
	out      *spanList
	from     [numAlphabets]int // s[from[a]:end[a]] is all in alphabet a
	end      [numAlphabets]int
	last     [numAlphabets][3]int // last upper, lower, digit in the run, or -1
	lastDone [numAlphabets]bool
	dotFrom  int // the first '.' at or after dotFrom is at dotAt
	dotAt    int
}

// newTokenScan returns the scan state of s.
func newTokenScan(s string, out *spanList) tokenScan {
	st := tokenScan{s: s, out: out, dotFrom: 1, dotAt: 0}
	for a := range st.from {
		st.from[a], st.end[a] = 1, 0 // an empty cache
	}
	return st
}

// runEnd returns the end of the run of alphabet a's bytes that starts at p.
func (st *tokenScan) runEnd(a, p int) int {
	if p >= st.from[a] && p <= st.end[a] {
		return st.end[a]
	}
	e := p
	for e < len(st.s) && inAlphabet(a, st.s[e]) {
		e++
	}
	st.from[a], st.end[a], st.lastDone[a] = p, e, false
	return e
}

// nextDot returns the index of the first '.' at or after p, or len(s).
func (st *tokenScan) nextDot(p int) int {
	if p >= st.dotFrom && p <= st.dotAt {
		return st.dotAt
	}
	d := strings.IndexByte(st.s[p:], '.')
	if d < 0 {
		d = len(st.s) - p
	}
	st.dotFrom, st.dotAt = p, p+d
	return p + d
}

// classesFrom counts which of upper case, lower case and digits occur in
// s[b:end[a]], the cached run of alphabet a.
func (st *tokenScan) classesFrom(a, b int) int {
	if !st.lastDone[a] {
		st.last[a] = [3]int{-1, -1, -1}
		for k := st.end[a] - 1; k >= st.from[a]; k-- {
			c := st.s[k]
			switch {
			case c >= 'A' && c <= 'Z' && st.last[a][0] < 0:
				st.last[a][0] = k
			case c >= 'a' && c <= 'z' && st.last[a][1] < 0:
				st.last[a][1] = k
			case isDigitByte(c) && st.last[a][2] < 0:
				st.last[a][2] = k
			}
		}
		st.lastDone[a] = true
	}
	n := 0
	for _, k := range st.last[a] {
		if k >= b {
			n++
		}
	}
	return n
}

// bodyPasses applies a rule's extra check to the token body s[b:end], the
// cached run of alphabet a.
func (st *tokenScan) bodyPasses(check, a, b, end int) bool {
	switch check {
	case checkMixed:
		return st.classesFrom(a, b) >= 2
	case checkJWT: // header rest . payload . signature (which may be empty)
		d1 := st.nextDot(b)
		if d1 >= end {
			return false
		}
		d2 := st.nextDot(d1 + 1)
		return d2 < end && d2 > d1+1
	case checkSendGrid:
		d := st.nextDot(b)
		return d < end && d-b >= 16 && end-d-1 >= 32
	}
	return true
}
