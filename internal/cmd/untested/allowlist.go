package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// allowlist maps each allowlisted name to its reason.
type allowlist map[string]string

// readAllowlist reads an allowlist: one name a line, a '#' and the reason
// after it; blank lines and lines starting with '#' are comments. A name
// without a reason, or listed twice, is an error.
func readAllowlist(name string) (allowlist, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a := allowlist{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fn, reason, _ := strings.Cut(line, "#")
		fn, reason = strings.TrimSpace(fn), strings.TrimSpace(reason)
		switch {
		case reason == "":
			return nil, fmt.Errorf("%s:%d: %s has no reason (name # reason)", name, n, fn)
		case strings.ContainsAny(fn, " \t"):
			return nil, fmt.Errorf("%s:%d: %q is not one name", name, n, fn)
		case a[fn] != "":
			return nil, fmt.Errorf("%s:%d: %s is listed twice", name, n, fn)
		}
		a[fn] = reason
	}
	return a, sc.Err()
}
