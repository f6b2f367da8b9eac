package argcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/nearest"
)

// The new name of a property the schema does not have. Besides a
// misspelling ([nearest.String]), a name is renamed when its words are
// the words of exactly one free property, each word equal, a common
// abbreviation of it ("desc", "qty", "addr") or the start of it (three
// letters or more: "ret_date" for return_date); when it is a common
// synonym of exactly one ("zip" for postal_code, "kids" for children);
// or when it is that property's name plus a qualifier that says nothing
// new ("full_name" for name, "email_address" for email, "ttl_seconds"
// for ttl when ttl is described in seconds). A name that fits no free
// property, or two, is never renamed and never dropped: "infants" where
// the tool has children is a passenger only the user can place.

// wordAbbreviations are common abbreviations of words in API names.
var wordAbbreviations = map[string]string{
	"addr": "address", "amt": "amount", "cnt": "count", "desc": "description", "dept": "department",
	"dest": "destination", "dst": "destination", "env": "environment", "ep": "episode", "img": "image",
	"info": "information", "lang": "language", "loc": "location", "msg": "message",
	"num": "number", "org": "organization", "pct": "percent", "prio": "priority", "qty": "quantity",
	"ref": "reference", "repo": "repository", "ret": "return", "src": "source", "tel": "telephone",
	"tmpl": "template", "ts": "timestamp", "tz": "timezone", "usr": "user",
}

// nameSynonyms are groups of names API designers use for one thing.
var nameSynonyms = [][]string{
	{"zip", "zipcode", "zip_code", "postcode", "post_code", "postal_code"},
	{"kids", "children"},
	{"branch", "ref", "git_ref"},
	{"base_branch", "base_ref", "from_ref", "from_branch", "source_branch", "source_ref"},
	{"phone", "phone_number", "telephone", "mobile"},
	{"surname", "last_name", "family_name"},
	{"first_name", "given_name", "forename"},
	{"timezone", "time_zone", "tz"},
}

// neutralQualifiers add nothing to a name: "full_name" is the name.
var neutralQualifiers = map[string]bool{"full": true, "address": true, "value": true, "text": true}

// unitQualifiers name a unit; one is neutral only when the target's
// schema says it is in that unit already.
var unitQualifiers = map[string]string{
	"seconds": "second", "secs": "second", "sec": "second", "ms": "millisecond", "millis": "millisecond",
	"minutes": "minute", "mins": "minute", "hours": "hour", "hrs": "hour", "days": "day",
	"bytes": "byte", "kb": "kilobyte", "mb": "megabyte",
}

// renameTarget returns the one free property name the unknown name stands
// for, or false when none or several do.
func renameTarget(name string, free []string, nodeOf func(string) map[string]any) (string, bool) {
	if to, ok := nearest.String(name, free); ok {
		return to, true
	}
	words := nameWordsOf(name)
	if len(words) == 0 || len(words) > 8 {
		return "", false
	}
	found, n := "", 0
	for _, p := range free {
		if sameThing(words, nameWordsOf(p), nodeOf(p)) || synonyms(name, p) {
			found, n = p, n+1
		}
	}
	return found, n == 1
}

// sameThing reports whether the words of an unknown name say what the
// words of a property say: word for word equal, abbreviated or cut short,
// with at most neutral qualifiers left over.
func sameThing(words, prop []string, node map[string]any) bool {
	i := 0
	for _, w := range words {
		if i < len(prop) && wordMeans(w, prop[i]) {
			i++
			continue
		}
		if !neutralQualifiers[w] && !unitOf(w, node) {
			return false
		}
	}
	return i == len(prop) && len(prop) > 0
}

// unitOf reports whether w names the unit node's value is in, by its
// description or title ("Time to live in seconds").
func unitOf(w string, node map[string]any) bool {
	unit, ok := unitQualifiers[w]
	if !ok {
		return false
	}
	d, _ := node["description"].(string)
	t, _ := node["title"].(string)
	return strings.Contains(strings.ToLower(d+" "+t), unit)
}

// wordMeans reports whether w stands for the word p: equal, its common
// abbreviation either way, its start (three letters or more and a third
// of it), or its plural.
func wordMeans(w, p string) bool {
	switch {
	case w == p, wordAbbreviations[w] == p, wordAbbreviations[p] == w, w+"s" == p, p+"s" == w:
		return true
	}
	n := utf8.RuneCountInString(w)
	return n >= 3 && 3*n >= utf8.RuneCountInString(p) && strings.HasPrefix(p, w)
}

// synonyms reports whether a and b are in one group of nameSynonyms,
// compared folded ("zipCode" is zip_code).
func synonyms(a, b string) bool {
	fa, fb := nearest.Fold(a), nearest.Fold(b)
	for _, group := range nameSynonyms {
		ia, ib := false, false
		for _, g := range group {
			fg := nearest.Fold(g)
			ia, ib = ia || fg == fa, ib || fg == fb
		}
		if ia && ib {
			return true
		}
	}
	return false
}

// nameWordsOf splits a name at separators and camelCase, lower case:
// "dailyBudgetCents" is daily, budget, cents.
func nameWordsOf(name string) []string {
	var words []string
	var b strings.Builder
	var prev rune
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	flush()
	return words
}
