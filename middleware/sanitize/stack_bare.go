package sanitize

import "strings"

// Frames without a keyword: lines that are frames by their shape alone,
// with no "at", "File" or "#1" in front.
//
//	com.acme.Foo.bar(Foo.java:42)                        Tomcat's error report
//	Acme.Web.HomeController.Index() in C:\src\Home.cs:15 ASP.NET's error page
//	lambda_method(Closure , ControllerBase , Object[] ) +87
//
// They are only frames when indented, and need a qualified name right
// before the parenthesis, so prose such as "  see the manual (page 12)" is
// not one.

// bareFrame reports whether r, an indented line, is a Java or .NET frame
// written without "at".
func bareFrame(r string) bool {
	k := strings.IndexByte(r, '(')
	if k < 1 || !qualifiedCallName(r[:k]) {
		return false
	}
	c := matchParen(r[k:])
	if c < 0 {
		return false
	}
	inner, after := r[k+1:k+c], r[k+c+1:]
	if after == "" {
		return javaLocation(inner)
	}
	return dotnetBareLocation(after)
}

// qualifiedCallName reports whether name, the text before a frame's '(',
// is one word that names a method: qualified ("Foo.bar", "a/b.C.d") or a
// compiled .NET expression ("lambda_method12").
func qualifiedCallName(name string) bool {
	if strings.IndexByte(name, ' ') >= 0 || spaceOrControlIn(name) {
		return false
	}
	if dotnetLambda(name) {
		return true
	}
	d := strings.IndexByte(name, '.')
	return d > 0 && d < len(name)-1
}

// spaceOrControlIn reports whether t holds a byte that collapseSpace
// would turn into a space (ASCII only; a frame name is ASCII).
func spaceOrControlIn(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] == 0x7f {
			return true
		}
	}
	return false
}

// frameWordStart reports whether r, a line after its indentation, starts
// like a frame of this file or a path with spaces: an indented qualified
// call ("com.acme.Foo.bar(") or a Windows drive path. Like traceKeyword
// (and rubyGemStart, and a "{main}" in the line), it lets the classifier
// see a line with odd white space as collapseSpace will leave it.
func frameWordStart(r string, indented bool) bool {
	if drivePath(r) {
		return true
	}
	if !indented {
		return false
	}
	n := 0
	for n < len(r) && r[n] > ' ' && r[n] != 0x7f && r[n] != '(' {
		n++
	}
	return n < len(r) && r[n] == '(' && qualifiedCallName(r[:n])
}

// drivePath reports whether r starts with a Windows drive path: "C:\" or "C:/".
func drivePath(r string) bool {
	return len(r) >= 3 && (r[0]|0x20 >= 'a' && r[0]|0x20 <= 'z') && r[1] == ':' && (r[2] == '\\' || r[2] == '/')
}
