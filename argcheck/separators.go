package argcheck

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Rewrites of a string that a pattern rejects, keeping every letter and
// digit the caller sent, in order, and changing only what separates the
// words and their case: "fr_CA" for ^[a-z]{2}-[A-Z]{2}$ is "fr-CA",
// "Order Date" for a snake_case name is "order_date", "INC 4521" for
// ^[A-Z]+-[0-9]+$ is "INC-4521", "EMP00412" for ^EMP-[0-9]{5}$ is
// "EMP-00412". A separator is never dropped ("mary.jones" never becomes
// "maryjones"): that merges words, and only the user knows whether the
// merged name is theirs.
//
// Which separator may become which is read from the pattern. A separator
// the pattern accepts anywhere is kept (in "billing-api" for
// ^[a-z0-9-]+/[a-z0-9._-]+$ the hyphen is not what is wrong: a part is
// missing). Others become a separator the pattern writes as a literal
// outside a character class, a position it reserves for a separator
// ("fr_CA" for ^[a-z]{2}-[A-Z]{2}$). A space, which separates words in
// prose and never belongs to an identifier, may also become a separator
// the pattern only lists in a class ("Order Date" for ^[a-z][a-z0-9_]*$
// is "order_date"); a dot, hyphen, underscore or slash is never moved
// into a class that way, since it may be part of the name itself
// ("m.okafor" for ^[a-z0-9-]+$ may be the account mokafor or m-okafor).
//
// The rewrite with the fewest changes wins (a separator replaced, a word
// re-cased or a separator inserted counts one change each), and only
// when it is the only one with that few: "mail server" for a DNS name
// could be "mail-server" or the subdomain "mail.server", so it is not
// rewritten. Every occurrence of one separator is replaced alike
// ("Fix Login Bug" is "fix-login-bug", not "fix/login-bug").

// wordSeparators are the characters that separate words in names,
// identifiers and paths.
const wordSeparators = " -_./"

// Bounds on the search, so that a hostile call costs milliseconds: at
// most maxSeparatorKinds distinct separators, maxRewriteWords words and
// maxInsertions places for an inserted separator, and at most
// maxRewriteTrials pattern matches for one value and maxCallRewrites for
// one call.
const (
	maxSeparatorKinds = 3
	maxRewriteWords   = 6
	maxInsertions     = 3
	maxRewriteTrials  = 2048
	maxCallRewrites   = 8192
	maxRewriteLen     = 128
)

// patternSeparators are the separators a pattern mentions: literal
// outside a character class, and anywhere.
type patternSeparators struct {
	literal, accepted string
	account           bool // a space never becomes a class's separator
}

// separatorsOf reads the separators of a pattern's source: a "." counts
// only escaped or in a class, where it is not "any character".
func separatorsOf(pattern string) patternSeparators {
	var ps patternSeparators
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		escaped := false
		if c == '\\' && i+1 < len(pattern) {
			i++
			c, escaped = pattern[i], true
		}
		switch {
		case !escaped && c == '[':
			inClass = true
			continue
		case !escaped && c == ']' && inClass:
			inClass = false
			continue
		case strings.IndexByte(wordSeparators, c) < 0, c == '.' && !escaped && !inClass:
			continue
		case c == '-' && !escaped && inClass && pattern[i-1] != '[' && pattern[i-1] != '^' &&
			i+1 < len(pattern) && pattern[i+1] != ']':
			continue // a range, as in a-z
		}
		if !inClass && strings.IndexByte(ps.literal, c) < 0 {
			ps.literal += string(c)
		}
		if strings.IndexByte(ps.accepted, c) < 0 {
			ps.accepted += string(c)
		}
	}
	return ps
}

// options are what separator sep may become, itself first; for an
// inserted place (sep ""), nothing or a literal separator.
func (ps patternSeparators) options(sep string, inserted bool) []string {
	out := []string{sep}
	if !inserted && strings.Trim(sep, ps.accepted) == "" {
		return out // the pattern accepts it: not what is wrong
	}
	pool := ps.literal
	if strings.TrimSpace(sep) == "" && !inserted && !ps.account {
		pool = ps.accepted
	}
	for _, c := range pool {
		if string(c) != sep {
			out = append(out, string(c))
		}
	}
	return out
}

// wordShape is a string cut into words and the separators between them.
type wordShape struct {
	words []string
	seps  []string // seps[i] follows words[i]; one fewer than words
	kinds []string // the distinct separators, in order of appearance
}

// shapeOf cuts s at runs of separators; ok is false when s has more words
// or kinds of separator than the search allows.
func shapeOf(s string) (wordShape, bool) {
	var sh wordShape
	start, inSep := 0, false
	for i, r := range s {
		isSep := strings.ContainsRune(wordSeparators, r)
		switch {
		case isSep && !inSep:
			sh.words = append(sh.words, s[start:i])
			start, inSep = i, true
		case !isSep && inSep:
			sep := s[start:i]
			sh.seps = append(sh.seps, sep)
			if !slices.Contains(sh.kinds, sep) {
				sh.kinds = append(sh.kinds, sep)
			}
			start, inSep = i, false
		}
	}
	if inSep { // trailing separators: not a name's shape
		return sh, false
	}
	sh.words = append(sh.words, s[start:])
	return sh, len(sh.words) <= maxRewriteWords && len(sh.kinds) <= maxSeparatorKinds && sh.words[0] != ""
}

// patternRewrite returns the one rewrite of s with the fewest changes
// that re matches, trimmed of surrounding space, or false when there is
// none or more than one. With account, the value names an account ("octo
// cat" may be the login octocat or octo-cat), and a space becomes only a
// literal separator. budget is the pattern matches the whole call may still spend; the
// search takes what it uses from it, and fails when it runs out.
func patternRewrite(s string, re *regexp.Regexp, account bool, budget *int) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || len(t) > maxRewriteLen {
		return "", false
	}
	if re.MatchString(t) {
		return t, t != s
	}
	sh, ok := shapeOf(t)
	if !ok {
		return "", false
	}
	if budget == nil {
		own := maxCallRewrites
		budget = &own
	}
	if *budget <= 0 {
		return "", false
	}
	search := rewriteSearch{re: re, budget: min(maxRewriteTrials, *budget), bestCost: 1 << 30, seps: separatorsOf(re.String())}
	start := search.budget
	defer func() { *budget -= start - max(search.budget, 0) }()
	search.seps.account = account
	search.separators(sh, false)
	if len(sh.kinds) == 0 {
		// Only a name with no separator may get one inserted, where a
		// letter meets a digit ("EMP00412"): the pattern says where.
		search.separators(insertionShape(sh.words[0]), true)
	}
	if search.budget < 0 || len(search.best) != 1 {
		return "", false
	}
	return search.best[0], true
}

// rewriteSearch collects the matching rewrites of the lowest cost.
type rewriteSearch struct {
	re       *regexp.Regexp
	seps     patternSeparators
	budget   int
	best     []string
	bestCost int
}

// try records candidate c of the given cost when re matches it.
func (r *rewriteSearch) try(c []byte, cost int) {
	if cost > r.bestCost || r.budget < 0 {
		return
	}
	if r.budget--; r.budget < 0 || !r.re.Match(c) {
		return
	}
	if cost < r.bestCost {
		r.best, r.bestCost = r.best[:0], cost
	}
	if !slices.Contains(r.best, string(c)) {
		r.best = append(r.best, string(c))
	}
}

// separators tries every replacement of the shape's separators (each
// kind replaced alike; inserted places, marked by "", each on its own)
// with every casing of its words.
func (r *rewriteSearch) separators(sh wordShape, inserted bool) {
	slots := sh.kinds
	if inserted {
		slots = sh.seps
	}
	choice := make([]string, len(slots))
	var pick func(i, cost int)
	pick = func(i, cost int) {
		if r.budget < 0 {
			return
		}
		if i == len(slots) {
			r.casings(sh, func(k int) string {
				if inserted {
					return choice[k]
				}
				return choice[slices.Index(slots, sh.seps[k])]
			}, cost)
			return
		}
		for _, o := range r.seps.options(slots[i], inserted) {
			changed := 0
			if o != slots[i] {
				changed = 1
			}
			if !inserted && o != slots[i] && slices.Contains(choice[:i], o) {
				continue // two kinds made one would merge what the caller kept apart
			}
			choice[i] = o
			pick(i+1, cost+changed)
		}
	}
	pick(0, 0)
}

// casings tries every word as sent, lower-cased and upper-cased, with
// separator k (after word k) replaced by sepAt(k).
func (r *rewriteSearch) casings(sh wordShape, sepAt func(k int) string, cost int) {
	words := make([]string, len(sh.words))
	var b []byte
	var pick func(i, cost int)
	pick = func(i, cost int) {
		if i == len(words) {
			b = b[:0]
			for k, w := range words {
				if k > 0 {
					b = append(b, sepAt(k-1)...)
				}
				b = append(b, w...)
			}
			r.try(b, cost)
			return
		}
		w := sh.words[i]
		for n, c := range []string{w, strings.ToLower(w), strings.ToUpper(w)} {
			if n > 0 && c == w || n == 2 && c == strings.ToLower(w) {
				continue
			}
			words[i] = c
			if n > 0 {
				pick(i+1, cost+1)
			} else {
				pick(i+1, cost)
			}
		}
	}
	pick(0, cost)
}

// insertionShape cuts word where a letter meets a digit, each cut an
// empty separator that may receive one: "EMP00412" is EMP, 00412.
func insertionShape(word string) wordShape {
	var sh wordShape
	start := 0
	var prev rune
	for i, r := range word {
		if i > 0 && (unicode.IsLetter(prev) && unicode.IsDigit(r) || unicode.IsDigit(prev) && unicode.IsLetter(r)) &&
			len(sh.seps) < maxInsertions {
			sh.words = append(sh.words, word[start:i])
			sh.seps = append(sh.seps, "")
			start = i
		}
		prev = r
	}
	sh.words = append(sh.words, word[start:])
	return sh
}
