package sanitize

import "strings"

// atFrame reports whether r, an indented line starting "at ", is a frame
// of Java (and the JVM languages), JavaScript or .NET:
//
//	at com.example.Foo.bar(Foo.java:42) ~[app.jar:1.0]
//	at java.base/java.lang.Thread.run(Thread.java:840)
//	at Ns.Type.Method(String arg) in C:\src\x.cs:line 42
//	at lambda_method12(Closure, Object, Object[])
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
	if drivePath(r) {
		return jsLocation(r) // "at C:\Program Files\app\index.js:5:9"
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
		if strings.IndexByte(name, '.') < 0 && !dotnetLambda(name) {
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

// javaLocation reports whether inner, what a Java frame holds in its
// parentheses, is a source location: "Foo.java:42", "Foo.kt", "Native
// Method", "Unknown Source" or "<generated>".
func javaLocation(inner string) bool {
	switch inner {
	case "Native Method", "Unknown Source", "<generated>":
		return true
	}
	if k := strings.LastIndexByte(inner, ':'); k >= 0 {
		if !isDigits(inner[k+1:]) {
			return false
		}
		inner = inner[:k]
	}
	d := strings.LastIndexByte(inner, '.')
	if d < 1 || d+1 >= len(inner) || len(inner)-d-1 > 6 {
		return false
	}
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if !isWordByte(c) && c != '$' && c != '-' && c != '.' {
			return false
		}
	}
	for i := d + 1; i < len(inner); i++ {
		if inner[i] < 'a' || inner[i] > 'z' {
			return false
		}
	}
	return true
}
