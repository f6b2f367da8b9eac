package sanitize

// US social security numbers. "078-05-1120", "078 05 1120" and "078051120"
// become "[REDACTED:ssn]" only when their key or label stands right before
// them (payment_context.go): "ssn", "SSN#", "ss#", "social security
// (number)", "tin", "itin", "tax id", "taxpayer id", or a key ending in
// "ssn", "social_security" or "social_security_number" ("customer_ssn").
// Nine digits alone are far more often an order number, a ZIP+4 or a
// routing number. Numbers the SSA never issues stay:
// area 000, 666 or 900-999, group 00, serial 0000. The number must stand
// on its own (runStartsFree, runEndsFree).

var ssnRepl = redacted("ssn")

// matchSSN records the social security number starting at the digit run
// s[i:end] and returns where it ends, or 0 when none starts there.
func matchSSN(s string, i, end int, out *spanList) int {
	var e int
	switch n := end - i; {
	case n == 9:
		e = end
	case n == 3:
		e = ssnGroups(s, end)
	}
	if e == 0 || !runStartsFree(s, i) || !runEndsFree(s, e) {
		return 0
	}
	var d [9]byte
	k := 0
	for j := i; j < e; j++ {
		if isDigitByte(s[j]) {
			d[k] = s[j]
			k++
		}
	}
	area, group, serial := string(d[:3]), string(d[3:5]), string(d[5:])
	if area == "000" || area == "666" || area[0] == '9' || group == "00" || serial == "0000" {
		return 0
	}
	if !mayHaveKeyBefore(s, i) || !isSSNKey(keyWordsBefore(s, i)) {
		return 0
	}
	out.add(i, e, ssnRepl, KindPayment)
	return e
}

// ssnGroups reads "-05-1120" or " 05 1120" (any white space) after the
// area ending at j, and returns where it ends, or 0.
func ssnGroups(s string, j int) int {
	for _, n := range [2]int{2, 4} {
		var k int
		switch {
		case j < len(s) && s[j] == '-':
			k = j + 1
		default:
			if k = skipSpaces(s, j); k == j {
				return 0
			}
		}
		if k+n > len(s) || !isDigits(s[k:k+n]) || (k+n < len(s) && isDigitByte(s[k+n])) {
			return 0
		}
		j = k + n
	}
	return j
}

// isSSNKey reports whether the words before a number (keyWordsBefore)
// label it a social security number.
func isSSNKey(near, far keyWord, ok bool) bool {
	switch {
	case !ok:
		return false
	case near.hasSuffix("ssn"), near.is("ss"), near.is("tin"), near.is("itin"),
		near.is("taxid"), near.is("taxpayerid"), near.hasSuffix("socialsecurity"),
		near.hasSuffix("socialsecuritynumber"), near.hasSuffix("socialsecurityno"):
		return true
	case near.is("id"):
		return far.is("tax") || far.is("taxpayer")
	case near.is("security"):
		return far.is("social")
	}
	return false
}
