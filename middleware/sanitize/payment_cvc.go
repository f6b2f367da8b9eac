package sanitize

// Card security codes. A value of three or four digits whose key or label
// stands right before it (payment_context.go) becomes
// "[REDACTED:card-security-code]"; the key stays. The keys, in any case
// and with or without '_' and '-': cvc, cvv, cvc2, cvv2, csc, cvn, cid,
// security_code, card_code, card_security_code, card_verification_code,
// card_verification_value, a key ending in cvc, cvv, cvc2 or cvv2
// ("card_cvc", "cardCvv"), and the labels "security code", "card code",
// "verification code". In query strings and forms ("card[cvc]=123"),
// JSON (`"cvc":"123"`, `"cvc": 123`) and prose ("CVC 123", "CVV is 123").
// PCI DSS forbids storing the code at all, so nothing of it is kept.

var securityCodeRepl = redacted("card-security-code")

// matchSecurityCode records the security code s[i:end] and returns end,
// or 0 when the run is no security code.
func matchSecurityCode(s string, i, end int, out *spanList) int {
	if n := end - i; n < 3 || n > 4 || !runStartsFree(s, i) || !runEndsFree(s, end) {
		return 0
	}
	if !mayHaveKeyBefore(s, i) || !isSecurityCodeKey(keyWordsBefore(s, i)) {
		return 0
	}
	out.add(i, end, securityCodeRepl, KindPayment)
	return end
}

// isSecurityCodeKey reports whether the words before a value
// (keyWordsBefore) label it a card security code.
func isSecurityCodeKey(near, far keyWord, ok bool) bool {
	if !ok {
		return false
	}
	for _, k := range [...]string{"cvc", "cvv", "cvc2", "cvv2", "csc", "cvn", "cid", "securitycode",
		"cardcode", "cardsecuritycode", "cardverificationcode", "cardverificationvalue"} {
		if near.is(k) {
			return true
		}
	}
	if near.is("code") {
		return far.is("security") || far.is("card") || far.is("verification")
	}
	for _, suffix := range [...]string{"cvc", "cvv", "cvc2", "cvv2"} {
		if near.hasSuffix(suffix) {
			return true
		}
	}
	return false
}
