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

// phpMain is the last frame of every PHP trace.
const phpMain = "{main}"

// monologStackHeader opens the frames of an exception that Monolog (and so
// Laravel) writes to a log line.
const monologStackHeader = "[stacktrace]"

// phpInlineTrace finds a PHP trace written on one line, as logs and some
// error pages that join lines write it:
//
//	Uncaught Exception: boom in /var/www/x.php:12 Stack trace: #0 /var/www/y.php(3): f() #1 {main} thrown in /var/www/x.php on line 12
//
// head is the message before "Stack trace:" without its location, after
// the text after "{main}" and the "thrown in" clause, n the number of
// frames.
func phpInlineTrace(r string) (head, after string, n int, ok bool) {
	m := strings.Index(r, phpMain)
	if m < 0 {
		return "", "", 0, false
	}
	k := strings.LastIndex(r[:m], phpStackHeader)
	if k < 0 {
		return "", "", 0, false
	}
	frames := r[k+len(phpStackHeader) : m]
	if !strings.HasPrefix(frames, " #0 ") {
		return "", "", 0, false
	}
	h := strings.LastIndexByte(frames, '#')
	last := frames[h+1:]
	d := digitsLen(last)
	if d == 0 || last[d:] != " " || d > 6 {
		return "", "", 0, false
	}
	for i := range d {
		n = n*10 + int(last[i]-'0')
	}
	after = r[m+len(phpMain):]
	if rest, ok := strings.CutPrefix(after, " thrown in "); ok {
		if j := strings.Index(rest, " on line "); j > 0 {
			tail := rest[j+len(" on line "):]
			if d := digitsLen(tail); d > 0 {
				after = tail[d:]
			}
		}
	}
	head = strings.TrimRight(r[:k], " ")
	if l := phpLocation(head); l >= 0 {
		head = head[:l]
	}
	return head, after, n + 1, true
}
