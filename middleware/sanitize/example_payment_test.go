package sanitize_test

import (
	"fmt"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// Payment data is always redacted: a card keeps its last four digits, a
// security code and a social security number go, an IBAN keeps its
// country and last four. Numbers that are no card stay.
func ExampleSanitizer_Clean_payment() {
	s := sanitize.New(sanitize.WithHostname(""))
	out, rep := s.Clean(`card 4242 4242 4242 4242 declined, {"cvc":"123"}, order ord_4242424242424242`)
	fmt.Println(out)
	out2, _ := s.Clean("payout to DE89 3704 0044 0532 0130 00 failed; SSN 078-05-1120 on file")
	fmt.Println(out2)
	fmt.Println(rep.Count(sanitize.KindPayment))
	// Output:
	// card [card ending 4242] declined, {"cvc":"[REDACTED:card-security-code]"}, order ord_4242424242424242
	// payout to [IBAN DE…3000] failed; SSN [REDACTED:ssn] on file
	// 2
}

// With WithPersonalData, e-mail addresses and phone numbers become
// tokens, the same value the same token within one call.
func ExampleWithPersonalData() {
	s := sanitize.New(sanitize.WithHostname(""), sanitize.WithPersonalData(true))
	out, _ := s.Clean("ann@example.com is taken; ask ANN@example.com or call +1 415 555 0100")
	fmt.Println(out)
	// Output:
	// [email-1] is taken; ask [email-1] or call [phone-1]
}
