package nearest

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Nearest names: the candidates a mistyped or outdated name (a tool,
// a route, a field) plausibly stands for, ranked, for an error to list
// them.

// defaultNearestNames is how many names [Names] returns at most
// when its max is 0 or less.
const defaultNearestNames = 5

// Bounds on the token comparison of [Names]: a name is compared by
// tokens only when it has at most maxNameTokens of them, and a token by
// edit distance only when both have at least minFuzzyToken runes.
const (
	maxNameTokens = 16
	minFuzzyToken = 5
)

// Names returns the candidates closest to name, best first, at most
// max of them (max <= 0 means 5), and suggested, the one candidate name
// most plausibly meant when exactly one is (the same rule as argcheck's
// repairs: equal but for case, else equal once case and separators are
// ignored, else within a small edit distance with a single best match),
// else "".
//
// A candidate is close when, with case and the separators "-", "_", " "
// and "." ignored, it is within a few edits of name (one edit for names
// of 3 to 5 letters, two up to 11, three from 12); or when their words
// (split at separators, slashes and camelCase: "searchOrders" is search,
// orders) are the same but for order ("order_search" and
// "search_orders"), or the words of one are all among those of the other
// and make at least two fifths of its letters ("refund" and
// "refund_order"). Words match when equal, when one is the other plus at
// most two letters ("order", "orders"), or, from 5 letters, when one edit
// apart. Nothing else is close: the list may be empty, and is never
// padded with unrelated names. A suggested name is always first.
//
// Candidates rank by edit distance, then by words (fewest words, then
// fewest letters, left over), then by name; duplicates are listed once. The order does not depend on
// the order of candidates. The cost is bounded whatever the input: a name
// or candidate over 256 bytes is never close, only the first 1024
// candidates are measured (a name equal but for case and separators is
// found among all), and edit distances are computed only between names of
// at most 64 letters.
func Names(name string, candidates []string, max int) (near []string, suggested string) {
	if max <= 0 {
		max = defaultNearestNames
	}
	if name == "" || len(name) > 256 || len(candidates) == 0 {
		return nil, ""
	}
	// Candidates over 256 bytes are never close, nor suggested.
	kept := make([]string, 0, len(candidates))
	for _, c := range candidates {
		if c != "" && len(c) <= 256 {
			kept = append(kept, c)
		}
	}
	folds := make([]string, len(kept))
	for i, c := range kept {
		folds[i] = Fold(c)
	}
	suggested, _ = Folded(name, kept, folds)
	q := newNameQuery(name)
	var ranked []rankedName
	for i, c := range kept[:min(len(kept), maxTypoCandidates)] {
		if c == suggested {
			continue
		}
		if r, ok := q.rank(c, folds[i], i); ok {
			ranked = append(ranked, r)
		}
	}
	slices.SortFunc(ranked, func(a, b rankedName) int {
		return cmp.Or(cmp.Compare(a.cost, b.cost), cmp.Compare(a.dist, b.dist),
			strings.Compare(a.name, b.name), cmp.Compare(a.index, b.index))
	})
	if suggested != "" {
		near = append(near, suggested)
	}
	for _, r := range ranked {
		if len(near) == max {
			break
		}
		if len(near) > 0 && near[len(near)-1] == r.name || r.name == suggested {
			continue // a duplicate: equal names sort together
		}
		near = append(near, r.name)
	}
	return near, suggested
}

// rankedName is a close candidate and its rank: cost first (the edit
// distance when within the limit, else past every distance by the words
// left over), then dist (the edit distance, or the letters of the words
// left over), then the name, then its index.
type rankedName struct {
	name              string
	cost, dist, index int
}

// nameQuery is the name [Names] compares candidates with, prepared
// once.
type nameQuery struct {
	fold    string
	runes   int      // rune count of fold
	limit   int      // the edit distance within which a candidate is close
	hist    runeHist // rune histogram of fold
	words   []string // nil when too many to compare
	letters int      // letters of words
}

// newNameQuery prepares name.
func newNameQuery(name string) *nameQuery {
	q := &nameQuery{fold: Fold(name)}
	q.runes = utf8.RuneCountInString(q.fold)
	q.limit = distanceLimit(q.runes)
	q.hist = histogram(q.fold)
	q.words, q.letters = nameWords(name)
	return q
}

// distanceLimit is the edit distance within which a name of n letters is
// close to another: none under 3 letters (only equality counts), one up
// to 5, two up to 11, three from 12.
func distanceLimit(n int) int {
	switch {
	case n < 3:
		return 0
	case n <= 5:
		return 1
	case n <= 11:
		return 2
	}
	return 3
}

// rank reports whether candidate c (at index i, folded fc) is close to
// the query, and its rank.
func (q *nameQuery) rank(c, fc string, i int) (rankedName, bool) {
	r := rankedName{name: c, index: i, dist: -1}
	if fc == q.fold {
		r.dist = 0
	} else if m := utf8.RuneCountInString(fc); q.limit > 0 && q.runes <= maxTypoLen && m <= maxTypoLen &&
		abs(q.runes-m) <= q.limit && q.hist.lowerBound(histogram(fc)) <= q.limit {
		r.dist = EditDistance(q.fold, fc)
	}
	if r.dist >= 0 && r.dist <= q.limit {
		r.cost = r.dist
		return r, true
	}
	words, letters, ok := q.wordsLeftOver(c)
	r.cost, r.dist = maxDistanceLimit+1+words, letters
	return r, ok
}

// maxDistanceLimit is the largest limit of [distanceLimit].
const maxDistanceLimit = 3

// wordsLeftOver reports whether the words of c and of the query are the
// same but for order, or those of one are all among those of the other
// and make two fifths of its letters or more; words and letters are how
// many words of the longer, and how many of their letters, no word of the
// shorter matches.
func (q *nameQuery) wordsLeftOver(c string) (words, letters int, ok bool) {
	if q.words == nil {
		return 0, 0, false
	}
	cWords, cLetters := nameWords(c)
	if cWords == nil {
		return 0, 0, false
	}
	short, long := q.words, cWords
	shortLetters, longLetters := q.letters, cLetters
	if len(short) > len(long) || len(short) == len(long) && shortLetters > longLetters {
		short, long = long, short
		shortLetters, longLetters = longLetters, shortLetters
	}
	if shortLetters < 3 || shortLetters*5 < longLetters*2 {
		return 0, 0, false
	}
	var used [maxNameTokens]bool
	for _, w := range short {
		found := false
		for j, l := range long {
			if !used[j] && wordsMatch(w, l) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return 0, 0, false
		}
	}
	for j, l := range long {
		if !used[j] {
			words, letters = words+1, letters+utf8.RuneCountInString(l)
		}
	}
	return words, letters, true
}

// wordsMatch reports whether lower-cased words a and b are the same word:
// equal, one the other plus at most two letters (from 4 letters: "order",
// "orders"), or one edit apart (from [minFuzzyToken] letters).
func wordsMatch(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	na, nb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	if na >= 4 && nb-na <= 2 && strings.HasPrefix(b, a) {
		return true
	}
	return na >= minFuzzyToken && nb-na <= 1 && nb <= maxTypoLen && EditDistance(a, b) <= 1
}

// nameWords splits s into lower-cased words at every rune that is not a
// letter or digit and where a lower-case letter or digit is followed by an
// upper-case one ("searchOrders": search, orders), and counts their runes;
// nil when s has more than [maxNameTokens] words.
func nameWords(s string) (words []string, letters int) {
	start := -1
	var prev rune
	flush := func(end int) bool {
		if start < 0 {
			return true
		}
		if len(words) == maxNameTokens {
			return false
		}
		w := strings.ToLower(s[start:end])
		words = append(words, w)
		letters += utf8.RuneCountInString(w)
		start = -1
		return true
	}
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !word:
			if !flush(i) {
				return nil, 0
			}
		case start >= 0 && unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			if !flush(i) {
				return nil, 0
			}
			start = i
		case start < 0:
			start = i
		}
		prev = r
	}
	if !flush(len(s)) {
		return nil, 0
	}
	return words, letters
}

// runeHist counts the runes of a string by bucket (the rune modulo 64):
// half the difference of two histograms is a lower bound of the edit
// distance of their strings, and it costs one pass.
type runeHist [64]int16

// histogram returns the rune histogram of s.
func histogram(s string) runeHist {
	var h runeHist
	for _, r := range s {
		h[r&63]++
	}
	return h
}

// lowerBound returns a lower bound of the edit distance between the
// strings of h and o: a substitution changes two counts by one, an
// insertion or deletion one, a transposition none.
func (h *runeHist) lowerBound(o runeHist) int {
	diff := 0
	for i := range h {
		diff += abs(int(h[i]) - int(o[i]))
	}
	return (diff + 1) / 2
}

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
