package sanitize

import "strings"

// Card numbers. A run of digits is a card number, and becomes
// "[card ending NNNN]" (the last four digits, all PCI DSS lets an agent
// see), when all of these hold:
//   - it has 13 to 19 digits, contiguous or in groups split by one '-' or
//     by white space (which the collapse stage turns into one space, so
//     cleaning the output finds nothing new), by the escape of a line break
//     in a JSON string ("\n"), or by a space as a form or URL encodes it
//     ('+', "%20"): cardSeparator;
//   - it passes the Luhn check;
//   - it starts with the issuer range of a major network and has a length
//     that network issues (cardNetwork): Visa, Mastercard, American Express,
//     Discover, JCB, Diners Club, UnionPay, Maestro, Mir;
//   - it stands on its own: no letter, digit or '_' touches it (an
//     identifier such as "ord_4242424242424242" or "pi_3N…"), no '+'
//     precedes it (a phone number), and no '.', ',', '-', '/' or ':' joins
//     it to another number (a decimal, a date, a longer dashed id), except
//     the commas around one run of 13 digits or more, a cell of a CSV row
//     (csvCell).
//
// The network ranges are what keeps the numbers an error carries that are
// not cards: timestamps and epoch milliseconds start with 1 or 2 (no
// network issues 1, and Mastercard's 2-series has 16 digits from 2221),
// ISBN-13 and most tracking numbers start with 9 or are longer than 19
// digits, and a UUID's dashed groups make one run of 32 digits. Within a
// run of space-separated groups, a card may start or end at any group
// ("order 1234 4242 4242 4242 4242"); a dash never splits a run.

// cardMinDigits and cardMaxDigits bound a card number's length.
const (
	cardMinDigits = 13
	cardMaxDigits = 19
)

// matchCard records the card number starting at the digit run at i and
// returns where it ends, or 0 when none starts there. Of the windows of
// whole groups starting at i, the longest card wins.
func matchCard(s string, i int, out *spanList) int {
	cell := csvCell(s, i)
	if !runStartsFree(s, i) && !cell {
		return 0
	}
	var digits [cardMaxDigits]byte
	// The Luhn sums of the digits read so far, with the digits at even
	// (sums[0]) or odd (sums[1]) indexes doubled: a window of n digits
	// passes when sums[n%2] is a multiple of 10, since the check doubles
	// every second digit from the last one, which it leaves. Each window
	// costs O(1).
	var sums [2]int
	n, best, bestN := 0, 0, 0
	for j := i; ; {
		for j < len(s) && isDigitByte(s[j]) {
			if n == cardMaxDigits {
				return recordCard(s, i, best, digits[:bestN], out)
			}
			d := int(s[j] - '0')
			dd := 2 * d
			if dd > 9 {
				dd -= 9
			}
			sums[n%2] += dd
			sums[1-n%2] += d
			digits[n] = s[j]
			n++
			j++
		}
		next, sep := cardSeparator(s, j)
		if (next < 0 || sep == ' ') && n >= cardMinDigits && (runEndsFree(s, j) || cell && j < len(s) && s[j] == ',') &&
			sums[n%2]%10 == 0 && cardNetwork(digits[:n]) {
			best, bestN = j, n
		}
		if next < 0 {
			return recordCard(s, i, best, digits[:bestN], out)
		}
		j = next
	}
}

// csvCell reports whether the digit run at i is a cell of comma-separated
// values ("1001,4111111111111111,12/29"): a ',' right before it and at
// least cardMinDigits digits in one run, which no thousands separator
// groups, so that the commas around it are the row's, not a number's.
func csvCell(s string, i int) bool {
	if i == 0 || s[i-1] != ',' {
		return false
	}
	e := i
	for e < len(s) && isDigitByte(s[e]) {
		e++
	}
	return e-i >= cardMinDigits
}

// recordCard adds the card s[i:end] with its digits, if any, and returns
// end.
func recordCard(s string, i, end int, digits []byte, out *spanList) int {
	if end == 0 {
		return 0
	}
	out.add(i, end, "[card ending "+string(digits[len(digits)-4:])+"]", KindPayment)
	return end
}

// cardSeparator reads the separator at s[j] between two groups of a card
// number: one '-' (also with white space around it: "4111 - 1111"), a run
// of white space or control characters, the escapes \n, \r and \t of a
// JSON string (a number typed on several lines), or a space as a form or
// a URL encodes it ('+', "%20"). It returns the index of the next group's
// first digit and '-' for a dash without white space (which a card never
// ends before: "4242-…" may go on as a longer id) or ' ' for the rest, or
// -1 when no group follows.
func cardSeparator(s string, j int) (next int, sep byte) {
	switch {
	case j >= len(s):
		return -1, 0
	case s[j] == '-':
		if j+1 < len(s) && isDigitByte(s[j+1]) {
			return j + 1, '-'
		}
		return -1, '-'
	case s[j] == '+':
		if j+1 < len(s) && isDigitByte(s[j+1]) {
			return j + 1, ' '
		}
		return -1, 0
	case s[j] == '%':
		if strings.HasPrefix(s[j:], "%20") && j+3 < len(s) && isDigitByte(s[j+3]) {
			return j + 3, ' '
		}
		return -1, 0
	}
	k := skipSpacesAndEscapes(s, j)
	if k == j || k >= len(s) {
		return -1, 0
	}
	if isDigitByte(s[k]) {
		return k, ' '
	}
	if s[k] == '-' {
		// A dash with white space around it reads as a space: a card may
		// end before it ("4242424242424242 - 3 attempts left").
		if d := skipSpacesAndEscapes(s, k+1); d > k+1 && d < len(s) && isDigitByte(s[d]) {
			return d, ' '
		}
	}
	return -1, 0
}

// skipSpacesAndEscapes returns the index past the white space, control
// characters and JSON string escapes of white space (\n, \r, \t) that
// start s[i:].
func skipSpacesAndEscapes(s string, i int) int {
	for {
		j := skipSpaces(s, i)
		if j+1 < len(s) && s[j] == '\\' && (s[j+1] == 'n' || s[j+1] == 'r' || s[j+1] == 't') {
			i = j + 2
			continue
		}
		return j
	}
}

// cardNetwork reports whether digits start with the issuer range of a
// major network and have a length that network issues.
func cardNetwork(digits []byte) bool {
	n := len(digits)
	p4 := int(digits[0]-'0')*1000 + int(digits[1]-'0')*100 + int(digits[2]-'0')*10 + int(digits[3]-'0')
	p2, p3 := p4/100, p4/10
	switch {
	case digits[0] == '4': // Visa
		return n == 13 || n == 16 || n == 19
	case p2 >= 51 && p2 <= 55, p4 >= 2221 && p4 <= 2720: // Mastercard
		return n == 16
	case p4 >= 2200 && p4 <= 2204: // Mir
		return n >= 16
	case p2 == 34 || p2 == 37: // American Express
		return n == 15
	case p3 >= 300 && p3 <= 305, p4 == 3095, p2 == 36, p2 == 38, p2 == 39: // Diners Club
		return n >= 14
	case p4 >= 3528 && p4 <= 3589: // JCB
		return n >= 16
	case p2 == 50, p2 >= 56 && p2 <= 69:
		// Maestro (12 to 19 digits), which also covers Discover (6011,
		// 644-649, 65) and UnionPay (62), 16 to 19 digits.
		return true
	}
	return false
}
