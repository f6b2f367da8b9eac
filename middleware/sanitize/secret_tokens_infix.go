package sanitize

import "strings"

// Token formats whose literal is inside the token, not at its start:
//
//   - Azure AD client secrets: three letters, digits or "_~.", a digit,
//     "Q~", then 31 to 34 of those bytes or '-';
//   - Telegram bot tokens: the bot's numeric id (5 to 16 digits), ":A",
//     then 34 letters, digits, '_' or '-'; in Bot API URLs after "/bot";
//   - Terraform Cloud API tokens: 14 letters or digits, ".atlasv1.", then
//     60 to 70 letters, digits, '-', '_' or '=';
//   - Mailchimp API keys: 32 hex digits, "-us" and a data-center number;
//   - MaxMind license keys: 6 letters or digits, '_', 29 more, "_mmk";
//   - Facebook app access tokens: the app id (15 or 16 digits), '|' (or
//     its URL encoding "%7C"), then the app secret of 27 to 40.
//
// The literal is looked for with strings.Index inside the long runs that
// the prefilter reports, so prose costs nothing here.

// minInfixTokenLen is the shortest token an infix rule matches;
// TestInfixRulesFitPrefilter checks the bound.
const minInfixTokenLen = 36

// infixRule is a token format around a literal infix: the parts before
// it, read leftwards from it, and the parts after it.
type infixRule struct {
	infix   string
	before  []tokenPart // each run bounded (max > 0)
	after   []tokenPart
	leadsIn string // a word the token may follow directly, such as "/bot"
	repl    string
}

// infixRules returns the formats of the package documentation above.
func infixRules() []infixRule {
	return []infixRule{
		{infix: "Q~", before: []tokenPart{fixed(alphaAzure, 3), fixed(alphaDigit, 1)},
			after: []tokenPart{between(alphaAzure, 31, 34)}, repl: redacted("azure-client-secret")},
		{infix: ":A", before: []tokenPart{between(alphaDigit, 5, 16)},
			after: []tokenPart{fixed(alphaURL, 34)}, leadsIn: "/bot", repl: redacted("telegram-bot-token")},
		{infix: ".atlasv1.", before: []tokenPart{fixed(alphaAlnum, 14)},
			after: []tokenPart{between(alphaURLEq, 60, 70)}, repl: redacted("terraform-token")},
		{infix: "-us", before: []tokenPart{fixed(alphaLowerHex, 32)},
			after: []tokenPart{between(alphaDigit, 1, 2)}, repl: redacted("mailchimp-key")},
		{infix: "_mmk", before: []tokenPart{fixed(alphaAlnum, 6), lit("_"), fixed(alphaAlnum, 29)},
			repl: redacted("maxmind-license-key")},
		{infix: "|", before: []tokenPart{between(alphaDigit, 15, 16)},
			after: []tokenPart{between(alphaURL, 27, 40)}, repl: redacted("facebook-token")},
		{infix: "%7C", before: []tokenPart{between(alphaDigit, 15, 16)},
			after: []tokenPart{between(alphaURL, 27, 40)}, repl: redacted("facebook-token")},
	}
}

// matchInfix records the infix tokens of the run s[start:end].
func matchInfix(rules []infixRule, s string, start, end int, out *spanList) {
	for k := range rules {
		r := &rules[k]
		for i := start; i < end; {
			j := strings.Index(s[i:end], r.infix)
			if j < 0 {
				break
			}
			at := i + j
			i = at + 1
			b, ok := r.matchBefore(s, at)
			if !ok {
				continue
			}
			e, ok := matchAfter(r.after, s, at+len(r.infix))
			if !ok || cutToken(s, e) || isDummyBody(s[b:min(e, b+bodyWindow)]) {
				continue
			}
			out.add(b, e, r.repl, KindSecret)
			i = e
		}
	}
}

// matchBefore matches r.before leftwards from s[at] and returns where the
// token starts: after a byte that is no letter or digit, or after
// r.leadsIn.
func (r *infixRule) matchBefore(s string, at int) (int, bool) {
	p := at
	for k := len(r.before) - 1; k >= 0; k-- {
		pt := r.before[k]
		if pt.lit != "" {
			if !strings.HasSuffix(s[:p], pt.lit) {
				return 0, false
			}
			p -= len(pt.lit)
			continue
		}
		b := p
		for b > 0 && p-b < pt.max && inAlphabet(pt.alpha, s[b-1]) {
			b--
		}
		if p-b < pt.min {
			return 0, false
		}
		p = b
	}
	if p > 0 && isAlnumByte(s[p-1]) && (r.leadsIn == "" || !strings.HasSuffix(s[:p], r.leadsIn)) {
		return 0, false
	}
	return p, true
}

// matchAfter matches parts from s[p], each run bounded by its max, and
// returns the end of the token, which no letter or digit may follow.
func matchAfter(parts []tokenPart, s string, p int) (int, bool) {
	for _, pt := range parts {
		if pt.lit != "" {
			if !strings.HasPrefix(s[p:], pt.lit) {
				return 0, false
			}
			p += len(pt.lit)
			continue
		}
		e := p
		for e < len(s) && e-p <= pt.max && inAlphabet(pt.alpha, s[e]) {
			e++
		}
		if e-p < pt.min || e-p > pt.max {
			return 0, false
		}
		p = e
	}
	if p < len(s) && isAlnumByte(s[p]) {
		return 0, false
	}
	return p, true
}
