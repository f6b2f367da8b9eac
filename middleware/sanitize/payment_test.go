package sanitize

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPaymentCards covers what the corpus forms do not: where a card
// starts and ends inside a run of numbers, white space that collapses,
// and the toolerrconnect cases that moved here.
func TestPaymentCards(t *testing.T) {
	assertCleans(t, New(WithHostname("")), []struct{ in, want string }{
		{"card 4242424242424242 declined", "card [card ending 4242] declined"},
		{"card 4242 4242 4242 4242", "card [card ending 4242]"},
		{"pan 5555-5555-5555-4444.", "pan [card ending 4444]."},
		{"two 4111111111111111 and 378282246310005", "two [card ending 1111] and [card ending 0005]"},
		{"order 4242424242424241 stays", "order 4242424242424241 stays"},
		{"id a4242424242424242 stays", "id a4242424242424242 stays"},
		{"ts 1700000000000 short", "ts 1700000000000 short"},
		{"order 1234 4242 4242 4242 4242", "order 1234 [card ending 4242]"},
		{"4242 4242 4242 4242 1234 next", "[card ending 4242] 1234 next"},
		{"card 4242\n4242\t4242  4242", "card [card ending 4242]"},
		{"card 4242424242424242-2026", "card 4242424242424242-2026"},
		{"4242424242424242", "[card ending 4242]"},
		{"#4242424242424242!", "#[card ending 4242]!"},
		{"/v1/cards/4242424242424242/charges", "/v1/cards/[card ending 4242]/charges"},
		{"call +4242424242424242", "call +4242424242424242"},
		{"card\u00a04242\u00a04242\u00a04242\u00a04242", "card [card ending 4242]"},
	})
}

// assertCleans checks that s cleans each in to its want, and that
// cleaning want changes nothing.
func assertCleans(t *testing.T, s *Sanitizer, cases []struct{ in, want string }) {
	t.Helper()
	for _, tc := range cases {
		got, _ := s.Clean(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		again, _ := s.Clean(got)
		assert.Equal(t, got, again, "idempotent: %q", tc.in)
	}
}

// TestPaymentPlaceholdersStay: a placeholder of the stage, cleaned again,
// stays as it is, also right after a key of another rule.
func TestPaymentPlaceholdersStay(t *testing.T) {
	s := New(WithHostname(""), WithPersonalData(true))
	for _, text := range []string{
		"[card ending 4242]", "cvc [card ending 1234]", "[IBAN DE…3000]", "iban=[IBAN GB…6819]",
		"[REDACTED:card-security-code] 123", "cvc=[REDACTED:card-security-code]",
		"[REDACTED:ssn] 078-05-1120", "ssn=[REDACTED:ssn]", "[email-1] [phone-2]", "SSN [card ending 1120]",
	} {
		got, rep := s.Clean(text)
		assert.Equal(t, text, got)
		assert.Zero(t, rep.Count(KindPayment)+rep.Count(KindPersonalData), text)
	}
}

// TestPaymentKeysInContext: a key must stand right before its value.
func TestPaymentKeysInContext(t *testing.T) {
	assertCleans(t, New(WithHostname("")), []struct{ in, want string }{
		{"SSN is 078-05-1120", "SSN is [REDACTED:ssn]"},
		{"taxpayer id 078051120", "taxpayer id [REDACTED:ssn]"},
		{"customer_ssn=078051120", "customer_ssn=[REDACTED:ssn]"},
		{"ssn 078-05-1120 and order 123-45-6789", "ssn [REDACTED:ssn] and order 123-45-6789"},
		{"ssn 078 05 1120 4567", "ssn [REDACTED:ssn] 4567"},
		{"SSN 078-05-1120-9", "SSN 078-05-1120-9"},
		{"card_cvc: '987'", "card_cvc: '[REDACTED:card-security-code]'"},
		{"verification code 1234", "verification code [REDACTED:card-security-code]"},
		{"CVC: 12a", "CVC: 12a"},
		{"cvc mismatch after 123 tries", "cvc mismatch after 123 tries"},
		{"IBAN DE89 3704 0044 0532 0130 00 EUR", "IBAN [IBAN DE…3000] EUR"},
		{"BE68539007547034 EUR", "[IBAN BE…7034] EUR"},
		{"to DE89\n3704 0044 0532\n0130 00", "to [IBAN DE…3000]"},
	})
}

// TestRedactMasksPayment: logs and spans get no card number either.
func TestRedactMasksPayment(t *testing.T) {
	s := New(WithHostname(""))
	got := s.Redact("panic: charge 4242424242424242 cvc=123\n\tat main.go:12")
	assert.Equal(t, "panic: charge [card ending 4242] cvc=[REDACTED:card-security-code]\n\tat main.go:12", got)
}

// TestPaymentPrefilterAgrees: the stage finds the same with and without
// its digit finder.
func TestPaymentPrefilterAgrees(t *testing.T) {
	with, without := newPaymentRules(true, true), newPaymentRules(true, false)
	for _, name := range []string{"cards.jsonl", "ibans.jsonl", "ssns.jsonl", "security_codes.jsonl", "negatives.jsonl"} {
		for _, c := range readPaymentCorpus(t, name) {
			var r1, r2 Report
			assert.Equal(t, with.redact(c.Text, &r1), without.redact(c.Text, &r2), c.Text)
			assert.Equal(t, r1, r2, c.Text)
		}
	}
}

// TestHasDigitByte checks the 8-byte digit test against the byte test for
// every byte value in every lane.
func TestHasDigitByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for lane := 0; lane < 8; lane++ {
			w := uint64(c) << (8 * lane)
			if lane > 0 {
				w |= 'x' // a non-digit in lane 0
			}
			assert.Equal(t, isDigitByte(byte(c)), hasDigitByte(w), "byte %#x lane %d", c, lane)
		}
	}
	assert.Equal(t, -1, indexDigitOrWide(strings.Repeat("abcdefgh", 9), 0))
	assert.Equal(t, 70, indexDigitOrWide(strings.Repeat("abcdefgh", 8)+"xyzzyx7", 3))
	assert.Equal(t, 70, indexDigitOrWide(strings.Repeat("abcdefgh", 8)+"xyzzyxé", 3), "a non-ASCII byte stops it")
	for c := 0; c < 256; c++ {
		for lane := 0; lane < 8; lane++ {
			w := uint64(c)<<(8*lane) | lsb*'x'&^(0xff<<(8*lane))
			assert.Equal(t, isDigitByte(byte(c)) || c >= 0x80, wideOrDigit(w) != 0, "byte %#x lane %d", c, lane)
		}
	}
}

// TestWideDigitCards: a card number in full-width, Arabic-Indic or
// Devanagari digits is masked like one in ASCII digits; a Luhn-failing
// one, one glued to other digits, and other text in those scripts stay.
func TestWideDigitCards(t *testing.T) {
	s := New(WithHostname(""))
	for in, want := range map[string]string{
		"カード番号 ４２４２４２４２４２４２４２４２":             "カード番号 [card ending 4242]",
		"カード番号：４２４２ ４２４２ ４２４２ ４２４２です":        "カード番号：[card ending 4242]です",
		"カード番号 ４２４２－４２４２－４２４２－４２４２":          "カード番号 [card ending 4242]",
		"رقم البطاقة ٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢":       "رقم البطاقة [card ending 4242]",
		"कार्ड ४२४२ ४२४२ ४२४२ ४२४२ अस्वीकृत": "कार्ड [card ending 4242] अस्वीकृत",
		"注文番号 ４２４２４２４２４２４２４２４１":              "注文番号 ４２４２４２４２４２４２４２４１",   // fails Luhn
		"残高 ４２４２４２４２４２４２４２４２４２４２":            "残高 ４２４２４２４２４２４２４２４２４２４２", // 20 digits
		"電話 ０３-１２３４-５６７８":                    "電話 ０３-１２３４-５６７８",
		"٢٠٢٦ سنة": "٢٠٢٦ سنة",
	} {
		got, _ := s.Clean(in)
		assert.Equal(t, want, got, in)
		again, _ := s.Clean(got)
		assert.Equal(t, got, again, "idempotent: %s", in)
	}
}

// TestPersonalData: e-mail addresses and phone numbers become per-call
// tokens, the same value the same token; off by default.
func TestPersonalData(t *testing.T) {
	in := "contact Ann@Example.com or ann@example.com, call +1 415 555 0100 or (415) 555-0199; bob@mail.example.org"
	off, _ := New(WithHostname("")).Clean(in)
	assert.Equal(t, in, off)
	s := New(WithHostname(""), WithPersonalData(true))
	got, rep := s.Clean(in)
	assert.Equal(t, "contact [email-1] or [email-1], call [phone-1] or [phone-2]; [email-2]", got)
	assert.Equal(t, 5, rep.Count(KindPersonalData))
	again, _ := s.Clean(got)
	assert.Equal(t, got, again)
	// A text holding tokens already: new ones are numbered above them.
	got, _ = s.Clean("was [email-3], now cy@example.net")
	assert.Equal(t, "was [email-3], now [email-4]", got)
	for _, keep := range []string{"user@localhost", "a@b.c", "v1.2.3@beta", "1-800-555-019", "ref 4155550100", "+1234567", "x+14155550100"} {
		out, _ := s.Clean(keep)
		assert.NotContains(t, out, "[email-", keep)
		assert.NotContains(t, out, "[phone-", keep)
	}
}

// TestPersonalDataConcurrent: calls share no numbering.
func TestPersonalDataConcurrent(t *testing.T) {
	s := New(WithHostname(""), WithPersonalData(true))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				got, _ := s.Clean("from a@example.com to b@example.com")
				if got != "from [email-1] to [email-2]" {
					t.Error(got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestPaymentEveryKey: every key and label of the two keyed rules,
// with each filler word, is found (mayHaveKeyBefore lets each through).
func TestPaymentEveryKey(t *testing.T) {
	s := New(WithHostname(""))
	codes := []string{"cvc", "CVV", "cvc2", "cvv2", "csc", "cvn", "cid", "security_code", "card_code",
		"card_security_code", "card-verification-code", "card_verification_value", "card_cvc", "cardCvv",
		"security code", "card code", "verification code", "cvc_", "cvv-"}
	ssns := []string{"ssn", "SSN#", "ss#", "tin", "itin", "tax_id", "taxpayer_id", "social security",
		"tax id", "taxpayer id", "customer_ssn", "socialSecurity"}
	for _, filler := range []string{"", " number", " no", " num", " nr", " is", " number is"} {
		for _, k := range codes {
			got, _ := s.Clean(k + filler + ": 123")
			assert.Equal(t, k+filler+": [REDACTED:card-security-code]", got)
		}
		for _, k := range ssns {
			got, _ := s.Clean(k + filler + " 078-05-1120")
			assert.Equal(t, k+filler+" [REDACTED:ssn]", got)
		}
	}
}

// TestCutNeverSplitsANumber: a digit run cut by the output cap goes whole,
// so a 20-digit id cut to a Luhn-valid card prefix is never left for a
// second cleaning to find.
func TestCutNeverSplitsANumber(t *testing.T) {
	s := New(WithHostname(""), WithMaxOutput(40))
	for in, want := range map[string]string{
		"reference number is 4242424242424242424242 and more": "reference number is…",
		"reference number: 5555-5555-5555-4444-1 and more":    "reference number:…",
		"total 42 items were found in the listing of 2026":    "total 42 items were found in the list…",
	} {
		got, _ := s.Clean(in)
		assert.Equal(t, want, got, in)
		again, _ := s.Clean(got)
		assert.Equal(t, got, again)
	}
}

// luhn is the textbook Luhn check, against which matchCard's running sums
// are tested.
func luhn(digits string) bool {
	sum, double := 0, false
	for k := len(digits) - 1; k >= 0; k-- {
		d := int(digits[k] - '0')
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

// TestCardLuhnSums: for Visa-range numbers of every card length, a number
// is masked exactly when it passes the textbook check.
func TestCardLuhnSums(t *testing.T) {
	for _, base := range []string{"4242424242424242424", "4000056655665556123", "4111111111111111999"} {
		for _, n := range []int{13, 16, 19} {
			for last := '0'; last <= '9'; last++ {
				num := base[:n-1] + string(last)
				var out spanList
				matchCard(" "+num+" ", 1, &out)
				assert.Equal(t, luhn(num), len(out.spans) == 1, num)
			}
		}
	}
}

// TestInputCapKeepsNoCardDigits: wherever the input cap falls inside a
// card number written in groups, the output holds none of its first
// digits: the groups before the cut go with the partial word.
func TestInputCapKeepsNoCardDigits(t *testing.T) {
	for _, sep := range []string{" ", "-", " \n "} {
		card := strings.Join([]string{"4242", "4242", "4242", "4242"}, sep)
		pre := strings.Repeat("x ", 40) + "card "
		text := pre + card + " declined"
		for cut := 0; cut <= len(card)+2; cut++ {
			out, _ := New(WithMaxInput(len(pre) + cut)).Clean(text)
			if strings.Contains(strings.NewReplacer(" ", "", "-", "").Replace(out), "4242424") {
				t.Errorf("cap %d: %q keeps the card's first digits", cut, out)
			}
		}
	}
}

// TestHTMLTextCapKeepsNoCardDigits: wherever the cap on an HTML page's
// text falls inside a card number, no first digits of it stay.
func TestHTMLTextCapKeepsNoCardDigits(t *testing.T) {
	s := New()
	for shift := 0; shift < 100; shift++ {
		// No title or heading: the page's text is what is kept, and cut.
		page := "<html><body><p>" + strings.Repeat("word ", (maxHTMLText-60)/5) +
			strings.Repeat("x", shift%5) + strings.Repeat(" w", shift/5) +
			" card 4242 4242 4242 4242 declined</p></body></html>"
		out, _ := s.Clean(page)
		if strings.Contains(strings.ReplaceAll(out, " ", ""), "4242424") {
			t.Errorf("shift %d: %q keeps the card's first digits", shift, out[max(0, len(out)-60):])
		}
	}
}
