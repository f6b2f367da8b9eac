package sanitize

import "strings"

// atFrame reports whether r, an indented line starting "at ", is a frame
// of Java (and the JVM languages), JavaScript or .NET:
//
//	at com.example.Foo.bar(Foo.java:42) ~[app.jar:1.0]
//	at java.base/java.lang.Thread.run(Thread.java:840)
//	at Ns.Type.Method(String arg) in C:\src\x.cs:line 42
//	at getUser (/app/src/users.js:12:19)
//	at async Promise.all (index 0)
//	at /app/index.js:5:1
//	at <anonymous>
//
// A qualified name and a parenthesis, or a path with a line number, is
// required, so prose such as "at 5 pm" or "at noon (12:30)" is not a frame.
func atFrame(r string) bool {
	r, ok := strings.CutPrefix(r, "at ")
	if !ok {
		return false
	}
	r = strings.TrimPrefix(r, "async ")
	r = strings.TrimPrefix(r, "new ")
	if r == "<anonymous>" || r == "native" {
		return true
	}
	n := 0
	for n < len(r) && r[n] != ' ' && r[n] != '(' {
		n++
	}
	if n == 0 {
		return false
	}
	name, rest := r[:n], r[n:]
	switch {
	case rest == "":
		return jsLocation(name)
	case rest[0] == '(':
		if strings.IndexByte(name, '.') < 0 {
			return false
		}
		c := matchParen(rest)
		if c < 0 {
			return false
		}
		after := rest[c+1:]
		return after == "" || dotnetLocation(after) ||
			strings.HasPrefix(after, " ~[") || strings.HasPrefix(after, " [")
	}
	return jsCallSite(rest)
}

// matchParen returns the index of the ')' that closes the '(' at r[0], or -1.
func matchParen(r string) int {
	depth := 0
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// ellipsisLine reports the family of a line of elided frames: Java's
// "... 12 more" and Logback's "... 12 common frames omitted", Ruby's
// "... 5 levels...". It returns langNone for any other line.
func ellipsisLine(r string) traceLang {
	rest, ok := strings.CutPrefix(r, "... ")
	if !ok {
		return langNone
	}
	n := digitsLen(rest)
	if n == 0 {
		return langNone
	}
	switch rest[n:] {
	case " more", " common frames omitted":
		return langAt
	case " levels...":
		return langRuby
	}
	return langNone
}
