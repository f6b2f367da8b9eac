package toolerrconnect

import "strings"

// The core sanitizer does not yet mask payment card numbers (DESIGN.md,
// Sanitization: "Luhn-valid card numbers keep only what PCI DSS allows an
// agent to see"). Until it does, every text the interceptor sends passes
// through maskCards after the sanitizer, so a card number in a handler's
// error never reaches a Connect, gRPC or gRPC-Web client. When the
// sanitizer masks cards itself, maskCards finds nothing left to do.

// maskCards replaces every Luhn-valid run of 13 to 19 digits (single
// spaces or dashes allowed between digits) that no letter or digit
// touches with "[card ending NNNN]".
func maskCards(s string) string {
	if digitCount(s) < 13 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isDigit(s[i]) || (i > 0 && isAlnum(s[i-1])) {
			i++
			continue
		}
		end, digits := cardRun(s, i)
		if n := len(digits); n >= 13 && n <= 19 && (end == len(s) || !isAlnum(s[end])) && luhn(digits) {
			b.WriteString(s[last:i])
			b.WriteString("[card ending ")
			b.WriteString(string(digits[n-4:]))
			b.WriteByte(']')
			last = end
		}
		i = max(end, i+1)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// cardRun reads digits from s[i:], allowing one space or dash between
// two digits, and returns where the run ends and its digits (at most 20).
func cardRun(s string, i int) (end int, digits []byte) {
	end = i
	for j := i; j < len(s) && len(digits) <= 19; {
		switch {
		case isDigit(s[j]):
			digits = append(digits, s[j])
			j++
			end = j
		case (s[j] == ' ' || s[j] == '-') && j+1 < len(s) && isDigit(s[j+1]) && j > i:
			j++
		default:
			return end, digits
		}
	}
	return end, digits
}

// luhn reports whether digits pass the Luhn check.
func luhn(digits []byte) bool {
	sum, double := 0, false
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// digitCount counts the ASCII digits of s.
func digitCount(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
