package sanitize

import (
	"strings"
	"testing"
)

// fuzzCards are test card numbers of each network the card rule knows.
var fuzzCards = []string{
	"4242424242424242", "5555555555554444", "2223003122003222", "378282246310005",
	"6011111111111117", "3056930009020004", "36227206271667", "3566002020360505",
	"6200000000000005", "6205500000000000004", "4222222222222",
}

// foundAt returns what the rule match finds at every digit run of s.
func foundAt(s string, match func(string, int, *spanList) int) []span {
	var out spanList
	for i := 0; i < len(s); i++ {
		if isDigitByte(s[i]) && (i == 0 || !isDigitByte(s[i-1])) {
			match(s, i, &out)
		}
	}
	return out.spans
}

// cardSeparators join the groups of a planted card.
var cardSeparators = []string{"", " ", "-", "\n", "  ", " - ", `\n`, "+", "%20"}

// FuzzLuhnCards plants a test card number, grouped by one of
// cardSeparators, between a prefix and a suffix, and checks that Clean's
// output holds no card the rule finds, that it is a fixed point, and that
// a card set apart by spaces never survives.
func FuzzLuhnCards(f *testing.F) {
	f.Add("card", uint(0), "declined")
	f.Add(`{"number":"`, uint(13), `","cvc":"123"}`)
	f.Add("order 1234", uint(2), "5678 next")
	f.Add("+", uint(4), "")
	f.Add("ord_", uint(8), "x")
	f.Add("20260314", uint(21), "0930")
	s := New(WithHostname(""))
	p := New(WithHostname(""), WithPersonalData(true))
	f.Fuzz(func(t *testing.T, prefix string, pick uint, suffix string) {
		card := fuzzCards[pick%uint(len(fuzzCards))]
		sep := cardSeparators[pick/uint(len(fuzzCards))%uint(len(cardSeparators))]
		var groups []string
		for k := 0; k < len(card); k += 4 {
			groups = append(groups, card[k:min(k+4, len(card))])
		}
		in := prefix + strings.Join(groups, sep) + suffix
		for _, san := range []*Sanitizer{s, p} {
			out, _ := san.Clean(in)
			if found := foundAt(out, matchCard); len(found) > 0 {
				t.Fatalf("card left in the output\n in: %q\nout: %q", in, out)
			}
			if again, _ := san.Clean(out); again != out {
				t.Fatalf("not idempotent\n in: %q\nout: %q\nout2: %q", in, out, again)
			}
			spaced := prefix + " " + strings.Join(groups, sep) + " " + suffix
			if out, _ := san.Clean(spaced); strings.Contains(out, card[:12]) {
				t.Fatalf("card survived\n in: %q\nout: %q", spaced, out)
			}
		}
	})
}

// fuzzIBANs are IBANs of the SWIFT registry's examples.
var fuzzIBANs = []string{
	"DE89370400440532013000", "GB29NWBK60161331926819", "FR1420041010050500013M02606",
	"NL91ABNA0417164300", "BE68539007547034", "NO9386011117947", "MT84MALT011000012345MTLCAST001S",
}

// FuzzIBAN plants an IBAN, contiguous or in groups of four, between a
// prefix and a suffix, and checks that Clean's output holds no IBAN the
// rule finds, that it is a fixed point, and that an IBAN set apart by
// spaces never survives.
func FuzzIBAN(f *testing.F) {
	f.Add("iban", uint(0), "rejected")
	f.Add(`{"iban":"`, uint(9), `"}`)
	f.Add("x", uint(3), "EUR")
	f.Add("", uint(11), " 00")
	s := New(WithHostname(""))
	f.Fuzz(func(t *testing.T, prefix string, pick uint, suffix string) {
		iban := fuzzIBANs[pick%uint(len(fuzzIBANs))]
		body := iban
		if pick/uint(len(fuzzIBANs))%2 == 1 {
			var groups []string
			for k := 0; k < len(iban); k += 4 {
				groups = append(groups, iban[k:min(k+4, len(iban))])
			}
			body = strings.Join(groups, " ")
		}
		in := prefix + body + suffix
		out, _ := s.Clean(in)
		if found := foundAt(out, matchIBAN); len(found) > 0 {
			t.Fatalf("IBAN left in the output\n in: %q\nout: %q", in, out)
		}
		if again, _ := s.Clean(out); again != out {
			t.Fatalf("not idempotent\n in: %q\nout: %q\nout2: %q", in, out, again)
		}
		spaced := prefix + " " + body + " " + suffix
		if out, _ := s.Clean(spaced); strings.Contains(out, iban[4:len(iban)-4]) {
			t.Fatalf("IBAN survived\n in: %q\nout: %q", spaced, out)
		}
	})
}

// FuzzPersonalData cleans any text with personal data masked: the output
// is a fixed point and holds no e-mail address the rule finds.
func FuzzPersonalData(f *testing.F) {
	f.Add("ann@example.com and +1 415 555 0100, (415) 555-0199; [email-2] bob@mail.example.org")
	f.Add("card 4242 4242 4242 4242 cvc 123 ann@example.com")
	f.Add("x@y.zz@q.rr +44 20 7946 0958")
	s := New(WithHostname(""), WithPersonalData(true))
	f.Fuzz(func(t *testing.T, in string) {
		out, _ := s.Clean(in)
		if again, _ := s.Clean(out); again != out {
			t.Fatalf("not idempotent\n in: %q\nout: %q\nout2: %q", in, out, again)
		}
		var found spanList
		var tokens personalTokens
		for i := strings.IndexByte(out, '@'); i >= 0; i = strings.IndexByte(out[i+1:], '@') + i + 1 {
			matchEmail(out, i, 1, &found, &tokens)
			if strings.IndexByte(out[i+1:], '@') < 0 {
				break
			}
		}
		if len(found.spans) > 0 {
			t.Fatalf("e-mail address left\n in: %q\nout: %q", in, out)
		}
	})
}
