package sanitize

import "strings"

// phpStackHeader opens the frames of a PHP exception.
const phpStackHeader = "Stack trace:"

// phpFrame reports whether r is a PHP frame: "#0 /var/www/x.php(12):
// App\Foo->bar()", "#1 [internal function]: f()" or "#2 {main}".
func phpFrame(r string) bool {
	rest, ok := strings.CutPrefix(r, "#")
	if !ok {
		return false
	}
	n := digitsLen(rest)
	if n == 0 || n >= len(rest) || rest[n] != ' ' {
		return false
	}
	rest = rest[n+1:]
	switch {
	case rest == "{main}", strings.HasPrefix(rest, "[internal function]: "):
		return true
	}
	k := strings.IndexByte(rest, '(')
	if k < 1 {
		return false
	}
	d := digitsLen(rest[k+1:])
	after := rest[k+1+d:]
	return d > 0 && (strings.HasPrefix(after, "): ") || after == "):")
}

// phpThrownIn reports whether r is the last line of an uncaught PHP
// exception: "thrown in /var/www/x.php on line 12".
func phpThrownIn(r string) bool {
	rest, ok := strings.CutPrefix(r, "thrown in ")
	if !ok {
		return false
	}
	k := strings.LastIndex(rest, " on line ")
	return k > 0 && isDigits(rest[k+len(" on line "):])
}

// phpLocation returns where the location " in /var/www/x.php:12" starts at
// the end of a PHP exception headline, or -1.
func phpLocation(t string) int {
	t = strings.TrimRight(t, " \t")
	k := strings.LastIndex(t, " in ")
	if k < 0 {
		return -1
	}
	p, ok := pathBeforeLineCol(t[k+len(" in "):])
	if !ok || !strings.Contains(t[k+len(" in "):][:p], ".php") {
		return -1
	}
	return k
}
