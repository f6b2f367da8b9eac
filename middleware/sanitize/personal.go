package sanitize

import (
	"strconv"
	"strings"
)

// WithPersonalData sets whether e-mail addresses and phone numbers are
// replaced with tokens: "[email-1]", "[phone-1]", numbered in order of
// appearance, the same value getting the same token within one call to
// [Sanitizer.Clean] or [Sanitizer.Redact] (the numbering starts again at
// the next call, and goes on above any token the text already holds).
// Default: false, they stay.
//
// The trade-off: an agent often needs the address or number to talk to
// the user ("the e-mail you gave, ann@example.com, is already
// registered"), and a masked one costs it that; an agent that must never
// see them, or logs that must not hold them, want it on. Payment data
// (card numbers, security codes, IBANs, social security numbers) is
// redacted either way.
func WithPersonalData(mask bool) Option {
	return func(c *config) { c.personal = mask }
}

// personalTokens numbers the personal data of one call. Its zero value is
// ready; it lives on the stack of one redact call, so calls share nothing.
type personalTokens struct {
	emails, phones []string // normalized values; token k is base+k+1
	based          bool
	emailBase      int
	phoneBase      int
}

// token returns the token of the normalized value of kind "email" or
// "phone" in s, numbering a new value after the last one.
func (t *personalTokens) token(s, kind, value string) string {
	if !t.based {
		t.based = true
		t.emailBase = maxTokenNumber(s, "[email-")
		t.phoneBase = maxTokenNumber(s, "[phone-")
	}
	list, base := &t.emails, t.emailBase
	if kind == "phone" {
		list, base = &t.phones, t.phoneBase
	}
	k := 0
	for k < len(*list) && (*list)[k] != value {
		k++
	}
	if k == len(*list) {
		*list = append(*list, value)
	}
	return "[" + kind + "-" + strconv.Itoa(base+k+1) + "]"
}

// maxTokenNumber returns the largest N of the tokens prefix+"N]" in s, or
// 0: new tokens are numbered above it, so a token is never given twice.
func maxTokenNumber(s, prefix string) int {
	best := 0
	for i := strings.Index(s, prefix); i >= 0; {
		j := i + len(prefix)
		k := j
		for k < len(s) && k-j < 9 && isDigitByte(s[k]) {
			k++
		}
		if k > j && k < len(s) && s[k] == ']' {
			if n, err := strconv.Atoi(s[j:k]); err == nil && n > best {
				best = n
			}
		}
		next := strings.Index(s[j:], prefix)
		if next < 0 {
			break
		}
		i = j + next
	}
	return best
}

// isEmailLocalByte reports whether c may appear in the local part of an
// address as this rule reads it.
func isEmailLocalByte(c byte) bool {
	return isAlnumByte(c) || strings.IndexByte("._%+-", c) >= 0
}

// matchEmail records the e-mail address around the '@' at i: a local
// part of letters, digits and "._%+-", and a domain of two or more labels
// whose last one has two or more letters.
func matchEmail(s string, at int, out *spanList, tokens *personalTokens) {
	start := at
	for start > 0 && isEmailLocalByte(s[start-1]) {
		start--
	}
	for start < at && s[start] == '.' {
		start++
	}
	if start == at {
		return
	}
	end, labels, last := at+1, 0, 0
	for {
		k := end
		for k < len(s) && (isAlnumByte(s[k]) || s[k] == '-') {
			k++
		}
		if k == end {
			break
		}
		labels, last, end = labels+1, end, k
		if end+1 < len(s) && s[end] == '.' && isAlnumByte(s[end+1]) {
			end++
			continue
		}
		break
	}
	if labels < 2 || end-last < 2 || !allLetters(s[last:end]) || (end < len(s) && s[end] == '_') {
		return
	}
	out.add(start, end, tokens.token(s, "email", strings.ToLower(s[start:end])), KindPersonalData)
}

// allLetters reports whether w is ASCII letters only.
func allLetters(w string) bool {
	for k := 0; k < len(w); k++ {
		if !isLetterByte(w[k]) {
			return false
		}
	}
	return true
}
