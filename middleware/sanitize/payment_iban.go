package sanitize

// IBANs. Two upper-case letters (the country), two check digits and the
// account number (upper-case letters and digits), 15 to 34 characters in
// all, written contiguously or in groups of four split by one space, become
// "[IBAN DE…3000]": the country and the last four characters, the rest
// dropped. The text must pass the ISO 13616 mod-97 check and, for a country
// in ibanLengths, have that country's length; an IBAN of a country the
// table lacks needs only the check. Nothing may touch it: no letter, digit
// or '_' before the country code, and after the last character nothing
// runEndsFree refuses. Groups of four may be split by one '-' too. Right
// after the key or label "iban" or "account" (`"iban": "de89…"`, "IBAN
// de89 3704 …"), an IBAN in lower case, or in groups of other lengths,
// counts too. A country code of ISO's user-assigned range ("XX") is no
// country, unless the registry lists it.

// ibanLengths lists the IBAN length of each country of the SWIFT IBAN
// registry, as a country code followed by two digits.
const ibanLengths = "AD24AE23AL28AT20AZ28BA20BE16BG22BH22BI27BR29BY28CH21CR22CY28CZ24" +
	"DE22DJ27DK18DO28EE20EG29ES24FI18FK18FO18FR27GB22GE22GI23GL18GR27" +
	"GT28HN28HR21HU28IE22IL23IQ23IS26IT27JO30KW30KZ20LB28LC32LI21LT20" +
	"LU20LV21LY25MC27MD24ME22MK19MN20MR27MT31MU30NI28NL18NO15OM23PK24" +
	"PL28PS29PT25QA29RO24RU33SA24SC31SD18SE24SI19SK24SM27SO23ST25SV28" +
	"TL23TN24TR26UA29VA22VG24XK20YE30"

// IBAN length bounds.
const (
	ibanMinLen = 15
	ibanMaxLen = 34
)

// ibanLength returns the registry length of country cc, or 0.
func ibanLength(cc string) int {
	for k := 0; k+4 <= len(ibanLengths); k += 4 {
		if ibanLengths[k:k+2] == cc {
			return int(ibanLengths[k+2]-'0')*10 + int(ibanLengths[k+3]-'0')
		}
	}
	return 0
}

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }

func isLowerByte(c byte) bool { return c >= 'a' && c <= 'z' }

// ibanKeyBefore reports whether the key or label "iban", or one ending in
// "account" ("bank_account", "account"), stands right before s[i]
// (keyWordsBefore): an IBAN written in lower case, or in groups of other
// lengths than four, is read only there, since lower-case letters and
// digits are what most ids are made of.
func ibanKeyBefore(s string, i int) bool {
	near, _, ok := keyWordsBefore(s, i)
	return ok && (near.hasSuffix("iban") || near.hasSuffix("account") || near.hasSuffix("accountnumber"))
}

// userAssignedCountry reports whether cc is in ISO 3166's user-assigned
// range (AA, QM to QZ, XA to XZ, ZZ): a stand-in such as "XX00 …" of
// documentation, never a country.
func userAssignedCountry(cc string) bool {
	return cc == "AA" || cc == "ZZ" || cc[0] == 'X' || cc[0] == 'Q' && cc[1] >= 'M'
}

// matchIBAN records the IBAN whose check digits start the digit run at i
// and returns where it ends, or 0 when none does. Of the lengths its
// groups allow, the longest valid one wins.
func matchIBAN(s string, i int, out *spanList) int {
	start := i - 2
	if start < 0 || (start > 0 && isIdentByte(s[start-1])) || i+1 >= len(s) || !isDigitByte(s[i+1]) {
		return 0
	}
	// Upper case, or lower case after the key or label "iban" or
	// "account"; a code of ISO's user-assigned range (XX, ZZ, QM…) only
	// when the registry has it (XK, Kosovo).
	lower := isLowerByte(s[start]) && isLowerByte(s[start+1])
	labelled := -1 // whether a label stands before, once known
	isLabelled := func() bool {
		if labelled < 0 {
			labelled = 0
			if ibanKeyBefore(s, start) {
				labelled = 1
			}
		}
		return labelled == 1
	}
	if !(isUpperByte(s[start]) && isUpperByte(s[start+1])) && !(lower && isLabelled()) {
		return 0
	}
	if cc := string([]byte{s[start] &^ 0x20, s[start+1] &^ 0x20}); ibanLength(cc) == 0 && userAssignedCountry(cc) {
		return 0
	}
	var chars [ibanMaxLen]byte
	var ends [ibanMaxLen + 1]int // ends[n] is where the n-th character ends, or 0
	n := 0
	for j := start; j < len(s) && n < ibanMaxLen; {
		c := s[j]
		switch {
		case isUpperByte(c) || isDigitByte(c) || lower && isLowerByte(c):
			if isLowerByte(c) {
				c -= 'a' - 'A'
			}
			chars[n] = c
			n++
			j++
			ends[n] = j
			continue
		case n > 0 && (n%4 == 0 || isLabelled()):
			// White space (any: it collapses to one) or one '-' between
			// groups of four, or, after a label, between groups of any
			// length ("IBAN BE68 539 00754 7034").
			k := skipSpaces(s, j)
			if k == j && s[j] == '-' {
				k = j + 1
			}
			if k > j && k < len(s) && (isUpperByte(s[k]) || isDigitByte(s[k]) || lower && isLowerByte(s[k])) {
				j = k
				continue
			}
		}
		break
	}
	want := ibanLength(string(chars[:2]))
	for k := n; k >= ibanMinLen; k-- {
		end := ends[k]
		if end == 0 || (want != 0 && k != want) || !runEndsFree(s, end) || !ibanChecks(chars[:k]) {
			continue
		}
		out.add(start, end, "[IBAN "+string(chars[:2])+"…"+string(chars[k-4:k])+"]", KindPayment)
		return end
	}
	return 0
}

// ibanChecks reports whether iban passes the mod-97 check: with its first
// four characters moved to the end and letters read as 10 to 35, the
// number leaves 1 divided by 97.
func ibanChecks(iban []byte) bool {
	rem := 0
	for k := range iban {
		c := iban[(k+4)%len(iban)]
		if c >= 'A' {
			rem = (rem*100 + int(c-'A'+10)) % 97
		} else {
			rem = (rem*10 + int(c-'0')) % 97
		}
	}
	return rem == 1
}
