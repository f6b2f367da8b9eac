package sanitize

import "strings"

// jsCallSite reports whether rest, what follows the function name of a
// JavaScript frame, is a call site: an optional " [as alias]", then
// " (location)", then an optional " {" opening the error's properties.
func jsCallSite(rest string) bool {
	if a, ok := strings.CutPrefix(rest, " [as "); ok {
		k := strings.IndexByte(a, ']')
		if k < 0 {
			return false
		}
		rest = a[k+1:]
	}
	rest, ok := strings.CutPrefix(rest, " (")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, " {")
	inner, ok := strings.CutSuffix(rest, ")")
	if !ok {
		return false
	}
	switch {
	case inner == "native", inner == "<anonymous>", strings.HasPrefix(inner, "index "):
		return true
	}
	return jsLocation(inner)
}

// jsLocation reports whether t is a script location with a line number:
// a path ("/app/x.js:1:2", "C:\app\x.js:1:2", "./src/main.rs:4:5"), a URL
// ("file:///app/x.mjs:3:9") or a Node built-in ("node:internal/x:95:5").
func jsLocation(t string) bool {
	k, ok := pathBeforeLineCol(t)
	if !ok {
		return false
	}
	p := t[:k]
	return strings.ContainsAny(p, `/\`) || strings.HasPrefix(p, "node:")
}
