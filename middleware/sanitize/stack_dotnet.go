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
