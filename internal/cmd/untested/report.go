package main

import (
	"fmt"
	"io"
	"sort"
)

// report writes the untested functions of funcs that the allowlist does
// not name, and the allowlisted names that are tested now or exist no
// more, and reports whether there were none of either.
func report(w io.Writer, funcs []function, cov coverage, allowed allowlist) bool {
	var untested, stale []string
	seen := map[string]bool{}
	for _, f := range funcs {
		seen[f.name] = true
		ran, some := cov.reached(f.file, f.from, f.to)
		switch {
		case !some && len(cov[f.file]) > 0:
			continue // no statements: nothing for a test to reach
		case ran && allowed[f.name] != "":
			stale = append(stale, f.name+" is tested now")
		case !ran && allowed[f.name] == "":
			untested = append(untested, f.name)
		}
	}
	for name := range allowed {
		if !seen[name] {
			stale = append(stale, name+" exists no more")
		}
	}
	sort.Strings(untested)
	sort.Strings(stale)
	for _, name := range untested {
		fmt.Fprintf(w, "untested: %s is exported and no test reaches it\n", name)
	}
	for _, s := range stale {
		fmt.Fprintf(w, "untested: allowlisted %s: remove it from the allowlist\n", s)
	}
	fmt.Fprintf(w, "untested: %d exported functions and methods, %d allowlisted, %d untested, %d stale allowlist entries\n",
		len(funcs), len(allowed), len(untested), len(stale))
	return len(untested) == 0 && len(stale) == 0
}
