package sanitize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// matchEmail records the e-mail address around the '@' at s[at:at+width]
// (width 3 for the "%40" of a URL-encoded address): a local part of
// letters, digits and "._%+-", or a quoted one (`"jane doe"@…`), and a
// domain of two or more labels of letters (any script), digits and '-',
// whose last one has two or more letters. Not an address: a repository's
// SSH remote ("git@github.com:org/repo.git", a ':' and a path right after
// the host), and an image's name ("logo@2x.png", whose last label is a
// file type).
func matchEmail(s string, at, width int, out *spanList, tokens *personalTokens) {
	start := quotedLocalStart(s, at)
	if start < 0 {
		start = at
		for start > 0 && isEmailLocalByte(s[start-1]) {
			start--
		}
		for start < at && s[start] == '.' {
			start++
		}
	}
	if start == at {
		return
	}
	end, labels, last := at+width, 0, 0
	for {
		k, ascii := end, false
		for k < len(s) {
			n := domainRuneAt(s, k, ascii)
			if n == 0 {
				break
			}
			ascii = ascii || n == 1
			k += n
		}
		if k == end {
			break
		}
		labels, last, end = labels+1, end, k
		if end+1 < len(s) && s[end] == '.' && domainRuneAt(s, end+1, false) > 0 {
			end++
			continue
		}
		break
	}
	if labels < 2 || end-last < 2 || !tldLetters(s[last:end]) || (end < len(s) && s[end] == '_') ||
		end+1 < len(s) && s[end] == ':' && s[end+1] > ' ' || isImageType(strings.ToLower(s[last:end])) {
		return
	}
	out.add(start, end, tokens.token(s, "email", strings.ToLower(s[start:end])), KindPersonalData)
}

// maxQuotedLocal bounds a quoted local part (RFC 5321 allows 64 bytes).
const maxQuotedLocal = 64

// quotedLocalStart returns the index of the opening quote of the quoted
// local part that ends right before the '@' at s[at] (`"jane doe"@…`), or
// -1 when none does: at most maxQuotedLocal bytes, printable, without an
// unescaped quote inside.
func quotedLocalStart(s string, at int) int {
	if at < 2 || s[at-1] != '"' {
		return -1
	}
	for k := at - 2; k >= 0 && at-1-k <= maxQuotedLocal; k-- {
		switch c := s[k]; {
		case c < ' ' || c == 0x7f:
			return -1
		case c == '"' && (k == 0 || s[k-1] != '\\'):
			if k == at-2 {
				return -1 // "" is no local part
			}
			return k
		}
	}
	return -1
}

// isImageType reports whether ext, in lower case, is the file type of an
// image, which ends an image's name written with a pixel density
// ("logo@2x.png") and no address.
func isImageType(ext string) bool {
	switch ext {
	case "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "bmp", "tif", "tiff", "heic":
		return true
	}
	return false
}

// domainRuneAt returns the byte length of the rune at s[i] when it may
// stand in a domain label as this rule reads it (an ASCII letter or digit,
// '-', or a letter or digit of any script, as in "bücher.de"), or 0. After
// ASCII bytes of the label (ascii), a Han, kana or Hangul rune ends it:
// Chinese, Japanese and Korean text runs on after an address without a
// space ("联系ann@example.com获取"), and is no part of it.
func domainRuneAt(s string, i int, ascii bool) int {
	c := s[i]
	if c < utf8.RuneSelf {
		if isAlnumByte(c) || c == '-' {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if ascii && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return 0
	}
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return n
	}
	return 0
}

// tldLetters reports whether the last label w of a domain is letters only
// (of any script: an internationalized top-level domain).
func tldLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
