package sanitize

import "strings"

// dotnetLocation reports whether after, what follows the parameter list of
// a .NET frame, is " in <path>:line <n>".
func dotnetLocation(after string) bool {
	rest, ok := strings.CutPrefix(after, " in ")
	if !ok {
		return false
	}
	k := strings.LastIndex(rest, ":line ")
	return k > 0 && isDigits(rest[k+len(":line "):])
}

// dotnetMarker reports whether r is one of the lines .NET writes between
// the parts of a trace: "--- End of inner exception stack trace ---" and
// "--- End of stack trace from previous location ---".
func dotnetMarker(r string) bool {
	return strings.HasPrefix(r, "--- End of ") && strings.HasSuffix(r, " ---")
}

// dotnetLambda reports whether name is a method that .NET compiled from an
// expression tree: "lambda_method", "lambda_method12". It has no dot.
func dotnetLambda(name string) bool {
	rest, ok := strings.CutPrefix(name, "lambda_method")
	return ok && (rest == "" || isDigits(rest))
}

// dotnetBareLocation reports whether after, what follows the parameter
// list of a frame of ASP.NET's error page, is its IL offset (" +87") or
// its source (" in C:\src\Home.cs:15", " in /src/Home.cs:line 15").
func dotnetBareLocation(after string) bool {
	if off, ok := strings.CutPrefix(after, " +"); ok {
		return isDigits(off)
	}
	if dotnetLocation(after) {
		return true
	}
	rest, ok := strings.CutPrefix(after, " in ")
	if !ok {
		return false
	}
	k, ok := pathBeforeLineCol(rest)
	return ok && strings.ContainsAny(rest[:k], `/\`)
}
