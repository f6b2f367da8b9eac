package sanitize

import "strings"

// Passwords in SQL. Database errors echo the statement that failed, and
// the statements that set a password carry it as a string literal after a
// keyword, with no '=' or ':' for the key/value rules to anchor on:
//
//	ALTER USER bob WITH PASSWORD 'Tr0ub4dor&3x'      (PostgreSQL)
//	CREATE USER scott IDENTIFIED BY 'tiger123'       (MySQL, Oracle)
//	SET PASSWORD FOR 'bob'@'%' = PASSWORD('hunter2') (MySQL)
//
// The rule anchors on the literal's opening quote and reads the keyword
// before it. Oracle's unquoted IDENTIFIED BY tiger is not found.

// maxSQLLiteral bounds the literal read as a password.
const maxSQLLiteral = 256

var sqlPasswordRepl = redacted("password")

// matchSQLPassword records the string literal that opens at s[q] (a single
// quote) when the keyword before it is PASSWORD, "PASSWORD(" or
// IDENTIFIED BY, in any case.
func matchSQLPassword(s string, q int, out *spanList) {
	p := skipSpacesBack(s, q)
	if p > 0 && s[p-1] == '(' {
		p = skipSpacesBack(s, p-1)
	}
	w := wordBefore(s, p)
	if strings.EqualFold(w, "by") {
		w = wordBefore(s, skipSpacesBack(s, p-len(w)))
		if !strings.EqualFold(w, "identified") {
			return
		}
	} else if !strings.EqualFold(w, "password") {
		return
	}
	e := q + 1
	for e < len(s) && e-q <= maxSQLLiteral && s[e] != '\'' && s[e] != '\n' {
		e++
	}
	if e >= len(s) || s[e] != '\'' || e == q+1 {
		return
	}
	if v := s[q+1 : e]; isPlaceholder(v) || isStandIn(v) || isTemplate(v) || v == "?" {
		return
	}
	out.add(q+1, e, sqlPasswordRepl, KindSecret)
}

// wordBefore returns the run of letters that ends at s[p], when a byte that
// is no letter, digit or '_' comes before it.
func wordBefore(s string, p int) string {
	a := p
	for a > 0 && (s[a-1]|0x20 >= 'a' && s[a-1]|0x20 <= 'z') {
		a--
	}
	if a > 0 && isWordByte(s[a-1]) {
		return ""
	}
	return s[a:p]
}
