package sanitize

import "strings"

// Phone numbers, masked only with [WithPersonalData]. Three forms are read:
//   - international: '+', then 8 to 15 digits in groups split by white
//     space, '-', '.' or parentheses ("+1 415 555 0100", "+14155550100",
//     "+44 (0)20 7946 0958"); a first group of more than 15 digits is no
//     phone number;
//   - North American: "(415) 555-0100", "415-555-0100", "415.555.0100",
//     "1-800-555-0199", with an area code and an exchange that start with
//     2 to 9;
//   - national, right after a phone label ("Tel: 020 7946 0958",
//     "phone_number=0612345678", "Mobile 415 555 0100"): 8 to 15 digits
//     in the groups of the international form.
//
// Ten digits alone ("4155550100") are left: they are as often an id. The
// number must stand on its own (runStartsFree, runEndsFree).

// Bounds of an international number's digits (E.164 allows 15).
const (
	phoneMinDigits = 8
	phoneMaxDigits = 15
)

// matchPhone records the phone number whose first digit run starts at i
// and returns where it ends, or 0.
func matchPhone(s string, i int, out *spanList, tokens *personalTokens) int {
	start, end, digits := i, 0, ""
	switch {
	case i > 0 && s[i-1] == '+' && (i == 1 || !isIdentByte(s[i-2])):
		start = i - 1
		end, digits = internationalPhone(s, i)
	case i > 0 && s[i-1] == '(' && (i == 1 || !isIdentByte(s[i-2])):
		start = i - 1
		end, digits = northAmericanPhone(s, i, true)
	case runStartsFree(s, i):
		if end, digits = northAmericanPhone(s, i, false); end == 0 && phoneLabelBefore(s, i) {
			end, digits = internationalPhone(s, i) // a national number under its label
		}
	}
	if end == 0 || !runEndsFree(s, end) {
		return 0
	}
	out.add(start, end, tokens.token(s, "phone", digits), KindPersonalData)
	return end
}

// internationalPhone reads the digits after a '+' starting at i and
// returns where the number ends and its digits, or 0. The number is the
// longest run of whole groups, up to 15 digits, that nothing glues to what
// follows (runEndsFree): what follows is read on its own, as it would be
// once the number is a token.
func internationalPhone(s string, i int) (end int, digits string) {
	var d [phoneMaxDigits]byte
	n, groupEnd, groupN := 0, 0, 0
	for j := i; ; {
		k := j
		for k < len(s) && isDigitByte(s[k]) {
			k++
		}
		if n+k-j > phoneMaxDigits {
			break // this group does not fit
		}
		n += copy(d[n:], s[j:k])
		if runEndsFree(s, k) {
			groupEnd, groupN = k, n
		}
		next, seps := k, 0 // up to three separators: " (", ") ", "-", …
		for next < len(s) && seps < 3 {
			if c := s[next]; c == '-' || c == '.' || c == '(' || c == ')' {
				next++
			} else if w := skipSpaces(s, next); w > next {
				next = w
			} else {
				break
			}
			seps++
		}
		if next == k || next >= len(s) || !isDigitByte(s[next]) {
			break
		}
		j = next
	}
	if groupN < phoneMinDigits {
		return 0, ""
	}
	return groupEnd, string(d[:groupN])
}

// northAmericanPhone reads "415-555-0100", "415.555.0100", "1-800-555-0199"
// or, after a '(' (paren), "415) 555-0100" starting at i, and returns where
// it ends and its ten digits, or 0.
func northAmericanPhone(s string, i int, paren bool) (end int, digits string) {
	j := i
	if !paren && j+1 < len(s) && s[j] == '1' && s[j+1] == '-' {
		j += 2
	}
	area, ok := digitsAt(s, j, 3)
	if !ok || area[0] < '2' {
		return 0, ""
	}
	j += 3
	var sep byte
	if paren {
		if j >= len(s) || s[j] != ')' {
			return 0, ""
		}
		j = skipSpaces(s, j+1)
	} else {
		if j >= len(s) || (s[j] != '-' && s[j] != '.') {
			return 0, ""
		}
		sep = s[j]
		j++
	}
	exchange, ok := digitsAt(s, j, 3)
	if !ok || exchange[0] < '2' {
		return 0, ""
	}
	j += 3
	if j >= len(s) || (s[j] != '-' && s[j] != '.') || (sep != 0 && s[j] != sep) {
		return 0, ""
	}
	line, ok := digitsAt(s, j+1, 4)
	if !ok {
		return 0, ""
	}
	return j + 5, area + exchange + line
}

// digitsAt returns the n digits at s[j:], when exactly n digits stand there.
func digitsAt(s string, j, n int) (string, bool) {
	if j+n > len(s) || !isDigits(s[j:j+n]) || (j+n < len(s) && isDigitByte(s[j+n])) {
		return "", false
	}
	return s[j : j+n], true
}

// phoneLabelBefore reports whether a phone label or key stands right
// before s[i], past the separators (also a full-width colon): a word or
// key keyWordsBefore reads ("tel", "phone", "mobile", "fax", "telefon",
// "telefoonnummer", "celular", "phone_number"…, phoneLabelWords), or a
// label in another script (phoneLabelTexts: "Tél", "Téléphone",
// "電話番号", "电话", "전화"…).
func phoneLabelBefore(s string, i int) bool {
	j := skipKeySeparators(s, i)
	if j == i || j == 0 {
		return false // glued to a word, or nothing before it
	}
	for _, label := range phoneLabelTexts {
		if k := j - len(label); k >= 0 && strings.EqualFold(s[k:j], label) {
			return true
		}
	}
	if !isAlnumByte(s[j-1]) {
		return false
	}
	near, _, ok := keyWordsBefore(s, i)
	if !ok {
		return false
	}
	for _, w := range phoneLabelWords {
		if near.hasSuffix(w) {
			return true
		}
	}
	return near.is("tel") || near.is("fax") || near.is("cell") || near.is("msisdn")
}

// phoneLabelWords end the keys and labels (normalized: lower case,
// without '_' and '-') that name a phone number.
var phoneLabelWords = [...]string{"phone", "phonenumber", "phoneno", "mobile", "mobil", "mobilenumber",
	"telefon", "telefonnummer", "telefoon", "telefoonnummer", "telefono", "telefone", "celular",
	"handy", "handynummer", "rufnummer", "cellphone"}

// phoneLabelTexts are phone labels written with letters keyWordsBefore
// does not read (accented, or of other scripts), compared without case.
var phoneLabelTexts = [...]string{"tél", "téléphone", "teléfono", "telèfon", "τηλ", "τηλέφωνο",
	"телефон", "тел", "電話番号", "電話", "携帯", "携帯電話", "电话", "电话号码", "手机", "手機",
	"전화", "전화번호", "هاتف"}
