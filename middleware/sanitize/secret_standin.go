package sanitize

import "strings"

// Stand-ins: values written where a secret would go that are not secrets.
// Documentation and sample configurations fill a token's shape with
// "xxxx", "XXXX-XXXX", "abcdef123456" or "...EXAMPLE", or name where the
// value comes from: "$API_KEY", "${password}", "{{ .Values.token }}",
// "<your token>", "YOUR_API_KEY". Redacting those hides nothing and costs
// the reader the hint, so the secret rules leave them.

// isDummyBody reports whether w, the first bytes of a token body, is a
// stand-in: an "EXAMPLE" marker, at most two distinct letters and
// digits, one of them making up half of them, or mostly a counting
// sequence ("abcdefgh", "12345678"). Random bodies of eight or more
// letters and digits are never any of these.
func isDummyBody(w string) bool {
	if strings.Contains(w, "EXAMPLE") {
		return true
	}
	var count [256]uint8
	n, distinct, top, asc := 0, 0, 0, 0
	prev := byte(0)
	for k := 0; k < len(w); k++ {
		c := w[k]
		if !isAlnumByte(c) {
			prev = 0
			continue
		}
		n++
		if count[c] == 0 {
			distinct++
		}
		count[c]++
		top = max(top, int(count[c]))
		if prev != 0 && c == prev+1 {
			asc++
		}
		prev = c
	}
	return n >= 8 && (distinct <= 2 || 2*top > n || 2*asc >= n)
}

// isTemplate reports whether v names where a value comes from instead of
// holding it: a shell or template variable ("$TOKEN", "${pw}", "$(cat
// f)", "{{ .x }}", "#{x}", "%APPDATA%") or an angle-bracket placeholder
// ("<token>").
func isTemplate(v string) bool {
	if len(v) < 2 {
		return false
	}
	for _, p := range []string{"${", "$(", "{{", "#{", "%{", "<%"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	switch v[0] {
	case '$':
		return isIdentifier(v[1:]) || isDigits(v[1:])
	case '<':
		return true
	case '%':
		// Windows environment variables (%APPDATA%, %ProgramData%) hold
		// no digits; a value like "%Gw7xCZ2Rj%" is a password that
		// happens to start and end with '%'.
		name := v[1 : len(v)-1]
		return len(v) > 2 && v[len(v)-1] == '%' && isIdentifier(name) && !strings.ContainsAny(name, "0123456789")
	}
	return false
}

// isConstantName reports whether v is written like a constant's name, as
// placeholders are ("YOUR_API_KEY", "ACCESS_TOKEN"): upper-case letters
// and '_', with at least one '_'. With start, v may be a constant name's
// start, and needs no '_'.
func isConstantName(v string, start bool) bool {
	under := false
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case c == '_':
			under = k > 0
		case c < 'A' || c > 'Z':
			return false
		}
	}
	return v != "" && (under || start)
}

// isIdentifier reports whether w is a letter or '_' followed by letters,
// digits and '_'.
func isIdentifier(w string) bool {
	if w == "" || isDigitByte(w[0]) {
		return false
	}
	for k := 0; k < len(w); k++ {
		if !isWordByte(w[k]) {
			return false
		}
	}
	return true
}

// isFiller reports whether v is one byte repeated, ignoring separators
// ("xxxxxx", "XXXX-XXXX", "......", "000000"), or an ellipsis.
func isFiller(v string) bool {
	n, one := repeatedByte(v)
	return v == "…" || one && n >= 3
}

// repeatedByte reports whether v, without the separators '-', '_' and
// '.' between its bytes, is one byte repeated, and how many times.
func repeatedByte(v string) (n int, one bool) {
	var c byte
	for k := 0; k < len(v); k++ {
		b := v[k]
		if n > 0 && c != b && (b == '-' || b == '_' || b == '.') {
			continue
		}
		if n > 0 && b != c {
			return n, false
		}
		c = b
		n++
	}
	return n, true
}

// isStandIn reports whether an assigned value is a stand-in, not a
// secret; a single byte ("0", "x") counts as one too. A value that ends
// with the output cap's mark may be the start of a longer one, which the
// first cleaning left alone: it is a stand-in when its start may be one,
// so cleaning the cut text again changes nothing.
func isStandIn(v string) bool {
	if base, cut := strings.CutSuffix(v, truncationMark); cut {
		return isStandInStart(base)
	}
	return len(v) == 1 || isNullish(v) || isTemplate(v) || isFiller(v) || isConstantName(v, false)
}

// isStandInStart reports whether v may be the start of a stand-in: a
// stand-in itself, the start of a word such as "null", one repeated byte,
// the start of a variable ("$", "$API_K", "%APP") or of a constant's name
// ("YOUR_AP").
func isStandInStart(v string) bool {
	if len(v) <= 1 || isStandIn(v) {
		return true
	}
	for _, w := range nullishWords {
		if len(v) <= len(w) && strings.EqualFold(v, w[:len(v)]) {
			return true
		}
	}
	if n, one := repeatedByte(v); one && n > 0 {
		return true
	}
	switch v[0] {
	case '$':
		return isIdentifier(v[1:]) || isDigits(v[1:])
	case '%':
		return isIdentifier(v[1:])
	}
	return isConstantName(v, true)
}

// cutToken reports whether the token that ends at s[end] is cut by the
// output cap: the cap's mark follows it and ends the text. Its whole was
// judged before the cut; its start cannot be judged again.
func cutToken(s string, end int) bool {
	return len(s)-end == len(truncationMark) && strings.HasSuffix(s, truncationMark)
}
