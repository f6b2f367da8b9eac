package sanitize

import (
	"strings"
	"unicode/utf8"
)

// The payment stage: card numbers (payment_card.go), card security codes
// (payment_cvc.go), IBANs (payment_iban.go) and US social security numbers
// (payment_ssn.go) are always redacted; e-mail addresses and phone numbers
// are replaced with per-call tokens when [WithPersonalData] is on
// (personal.go, personal_phone.go). Every rule is anchored at the first
// digit of a run of ASCII digits, except the e-mail rule, anchored at '@':
// text without a digit costs one 8-bytes-at-a-time scan. Each finding
// counts one KindPayment or KindPersonalData.
//
// Where text could hold one space between groups of digits, the rules read
// any run of white space (skipSpaces), since the collapse stage turns it
// into one space: cleaning the output then finds nothing new.
//
// Placeholders hold no digit run a rule reads again and no '@', so cleaning
// clean text changes nothing: "[card ending 4242]" (a four-digit run after
// "ending", which is no security-code key), "[IBAN DE…3000]",
// "[REDACTED:card-security-code]", "[REDACTED:ssn]", "[email-1]",
// "[phone-1]".

// paymentRules is the compiled payment stage of a Sanitizer. It is
// immutable after New and safe for concurrent use: the tokens of personal
// data live in each call's own state.
type paymentRules struct {
	personal  bool // mask e-mail addresses and phone numbers
	digit     finder
	at        finder // '@'
	encodedAt finder // "%40", a URL-encoded '@'
}

// newPaymentRules compiles the payment stage; prefilter false makes every
// rule run at every position (for tests and benchmarks).
func newPaymentRules(personal, prefilter bool) *paymentRules {
	p := &paymentRules{personal: personal, digit: everyPosition, at: byteFinder('@', prefilter),
		encodedAt: stringFinder("%40", prefilter)}
	if prefilter {
		p.digit = indexDigitOrWide
	}
	return p
}

// maxPaymentRounds bounds how often redact reads its own output.
const maxPaymentRounds = 3

// redact returns s with its payment data (and, when configured, personal
// data) replaced, counting each finding in rep. When nothing is found it
// returns s itself.
//
// An e-mail token can free what stood glued to it: in
// "ann@example.com+1 415 555 0100" the '+' follows a letter, so no phone
// number starts there, until the address is a token. With personal data
// masked, redact therefore reads its output again, with the same tokens,
// until nothing more is found (at most maxPaymentRounds times), so that
// cleaning the output changes nothing. The payment rules need no second
// reading: each replaces only a number that nothing glues to its
// neighbours (runStartsFree, runEndsFree), so its placeholder frees
// nothing; FuzzClean, FuzzLuhnCards and FuzzIBAN check it.
func (p *paymentRules) redact(s string, rep *Report) string {
	var tokens personalTokens
	rounds := 1
	if p.personal {
		rounds = maxPaymentRounds
	}
	for round := 0; round < rounds; round++ {
		var found bool
		if s, found = p.redactOnce(s, rep, &tokens); !found {
			break
		}
	}
	return s
}

// redactOnce is one reading of s; found reports whether anything was
// replaced.
func (p *paymentRules) redactOnce(s string, rep *Report, tokens *personalTokens) (out string, found bool) {
	var spans spanList
	for i := p.digit(s, 0); i >= 0; i = p.digit(s, i) {
		if s[i] >= utf8.RuneSelf {
			i = matchWide(s, i, &spans) // payment_card_wide.go
			continue
		}
		if !isDigitByte(s[i]) || (i > 0 && isDigitByte(s[i-1])) {
			i++ // without the prefilter: not the start of a digit run
			continue
		}
		i = p.matchRun(s, i, &spans, tokens)
	}
	if p.personal {
		for i := p.at(s, 0); i >= 0; i = p.at(s, i+1) {
			if s[i] == '@' {
				matchEmail(s, i, 1, &spans, tokens)
			}
		}
		for i := p.encodedAt(s, 0); i >= 0; i = p.encodedAt(s, i+1) {
			if strings.HasPrefix(s[i:], "%40") {
				matchEmail(s, i, 3, &spans, tokens) // a URL-encoded address
			}
		}
	}
	return spans.apply(s, rep), len(spans.spans) > 0
}

// matchRun tries the rules anchored at the digit run starting at i and
// returns where the scan goes on: past a finding, else past the run.
func (p *paymentRules) matchRun(s string, i int, out *spanList, tokens *personalTokens) int {
	end := i
	for end < len(s) && isDigitByte(s[end]) {
		end++
	}
	// Each rule is tried only where the run has its shape: most numbers
	// of prose ("42 of", "in 1880,") have none.
	if i >= 2 && isLetterByte(s[i-1]) && isLetterByte(s[i-2]) { // an IBAN's country
		if e := matchIBAN(s, i, out); e > 0 {
			return e
		}
	}
	// A card needs 13 digits: a shorter run must be the first group of
	// several.
	if end-i >= cardMinDigits || isCardGroup(s, end) {
		if e := matchCard(s, i, out); e > 0 {
			return e
		}
	}
	// A social security number starts with 3 digits or has 9, a security
	// code has 3 or 4, and both need their key before them.
	if n := end - i; (n == 3 || n == 4 || n == 9) && mayHaveKeyBefore(s, i) {
		if e := matchSSN(s, i, end, out); e > 0 {
			return e
		}
		if e := matchSecurityCode(s, i, end, out); e > 0 {
			return e
		}
	}
	if p.personal {
		if e := matchPhone(s, i, out, tokens); e > 0 {
			return e
		}
	}
	return end
}

// isCardGroup reports whether a separator and another digit follow the
// digit run ending at end, as after a group of a card number. The common
// cases of prose (a letter or a punctuation mark after the run, or one
// space and a word) are decided without reading white space runs.
func isCardGroup(s string, end int) bool {
	if end+1 >= len(s) {
		return false
	}
	switch c, d := s[end], s[end+1]; {
	case c == '-' || c == '+':
		return isDigitByte(d)
	case c == ' ' && d > ' ' && d < 0x7f && d != '-' && d != '\\':
		return isDigitByte(d)
	case c > ' ' && c < 0x7f && c != '%' && c != '\\':
		return false
	}
	next, _ := cardSeparator(s, end)
	return next >= 0
}

// finds reports whether the stage would change s.
func (p *paymentRules) finds(s string) bool {
	var rep Report
	return p.redact(s, &rep) != s
}

// indexDigitOrWide is the finder of an ASCII digit or a byte of a
// non-ASCII rune (which may be a digit of another script,
// payment_card_wide.go): it tests 32 bytes at a time, then 8. Text in
// ASCII costs what a search for digits alone does.
func indexDigitOrWide(s string, from int) int {
	if from < 0 {
		from = 0
	}
	i := from
	for i+32 <= len(s) {
		b := s[i : i+32]
		if wideOrDigit(word(b[0:8]))|wideOrDigit(word(b[8:16]))|wideOrDigit(word(b[16:24]))|wideOrDigit(word(b[24:32])) != 0 {
			break
		}
		i += 32
	}
	for i+8 <= len(s) && wideOrDigit(word(s[i:i+8])) == 0 {
		i += 8
	}
	for ; i < len(s); i++ {
		if isDigitByte(s[i]) || s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// wideOrDigit is non-zero exactly when a byte of w is an ASCII digit or
// has its high bit set.
func wideOrDigit(w uint64) uint64 { return digitBits(w) | w&msb }

// word reads the first 8 bytes of b as a little-endian word; with b's
// length known, the compiler reads them in one load without bounds checks.
func word(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// hasDigitByte reports whether a byte of the little-endian word w is an
// ASCII digit. x = w ^ '0' maps the digits, and only them, to the bytes
// below 10; (x - 10) &^ x has the high bit of some byte set exactly when
// a byte of x is below 10 (the "has less than" bit trick: borrows only
// start at such a byte). Bytes >= 0x80 keep their high bit in x and never
// count.
func hasDigitByte(w uint64) bool { return digitBits(w) != 0 }

// digitBits is hasDigitByte's test before the comparison: non-zero
// exactly when a byte of w is an ASCII digit.
func digitBits(w uint64) uint64 {
	x := w ^ (lsb * '0')
	return (x - lsb*10) &^ x & msb
}

// isIdentByte reports whether c glues a digit run into an identifier
// ("ord_4242…", "a4242…"): a letter, a digit or '_'.
func isIdentByte(c byte) bool { return isWordByte(c) }

// runStartsFree reports whether the digit run starting at i stands on its
// own on the left: no letter, digit or '_' before it (an identifier; the
// escape "\n" of a JSON string is no letter), no '+' at the start of a
// word (a phone number), and no '.', ',' or '-' right after a digit (a
// decimal, a version, a date or the middle of a dashed number).
func runStartsFree(s string, i int) bool {
	if i == 0 {
		return true
	}
	c := s[i-1]
	switch {
	case c == '+':
		// A sign, as of a phone number, unless a word or a number ends
		// right before it: then it is a space a form encoded
		// ("card+4242+4242…").
		return i >= 2 && isAlnumByte(s[i-2])
	case (c == 'n' || c == 'r' || c == 't') && i >= 2 && s[i-2] == '\\':
		return true // after the escape of a line break in a JSON string
	case isIdentByte(c):
		return false
	case (c == '.' || c == ',' || c == '-' || c == '/' || c == ':') && i >= 2 && isDigitByte(s[i-2]):
		return false
	}
	return true
}

// runEndsFree reports whether a number ending at e stands on its own on the
// right: no letter, digit or '_' after it, and no '.', ',', '-', '/' or
// ':' followed by a digit (a decimal, a date, a time, a longer number).
func runEndsFree(s string, e int) bool {
	if e >= len(s) {
		return true
	}
	c := s[e]
	switch {
	case isIdentByte(c):
		return false
	case (c == '.' || c == ',' || c == '-' || c == '/' || c == ':') && e+1 < len(s) && isDigitByte(s[e+1]):
		return false
	}
	return true
}

// isLetterByte reports whether c is an ASCII letter.
func isLetterByte(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
