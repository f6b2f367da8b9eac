// Command untested lists the exported functions and methods of a module
// that no test reaches, and fails when one is not in the allowlist.
//
// It reads coverage profiles of the module's tests, written by go test
// with -coverpkg set to the module's packages (so that a function reached
// by the tests of any package counts), and the module's Go sources. An
// exported function, or an exported method of an exported type, of a
// package other than main, none of whose statements any profile counts
// as run, is untested. With -nested, the modules nested in the module's
// folder (each with a go.mod of its own) are checked too, against the
// profiles of their own tests, given alongside the root module's. The
// allowlist names the ones that may stay so, one a line with the reason
// after a '#':
//
//	toolerr/internal/sdkmajors.Run # its callers are the nested modules mappers/majors/*
//
// Lines that are blank or start with '#' are comments. CI fails (exit 1)
// on an untested name not in the allowlist, on an allowlisted name without
// a reason, and on an allowlisted name that is tested now or no longer
// exists, so the allowlist stays short and true. Names are the package's
// folder under the root module's, led by the last element of the root
// module's path (toolerr/sanitize, toolerr/middleware/toolerrgin), then
// the function, or the receiver in parentheses and the method.
//
// Usage, from the module's root:
//
//	go test -coverpkg=./... -coverprofile=cover.out ./...
//	go run ./internal/cmd/untested -profile cover.out -allow .ci/untested.allow
//
// and with the nested modules, each tested in its own folder:
//
//	(cd middleware/toolerrgin && go test -coverpkg=./... -coverprofile=../../gin.out ./...)
//	go run ./internal/cmd/untested -nested -profile cover.out -profile gin.out -allow .ci/untested.allow
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	var profiles []string
	flag.Func("profile", "coverage profile of the module's tests, with -coverpkg set to its packages (repeat it for several)", func(p string) error {
		profiles = append(profiles, p)
		return nil
	})
	allow := flag.String("allow", "", "allowlist of the exported names that may stay untested")
	root := flag.String("root", ".", "root of the module (the folder of its go.mod)")
	nested := flag.Bool("nested", false, "check the modules nested in the root's folder too")
	flag.Parse()
	if len(profiles) == 0 {
		fmt.Fprintln(os.Stderr, "untested: -profile is required")
		os.Exit(2)
	}
	ok, err := run(os.Stdout, check{root: *root, profiles: profiles, allow: *allow, nested: *nested})
	if err != nil {
		fmt.Fprintln(os.Stderr, "untested:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// check is what to check: the module at root, and the modules nested in
// it when nested is set, against the coverage profiles and the allowlist
// (none when allow is "").
type check struct {
	root     string
	profiles []string
	allow    string
	nested   bool
}

// run carries out c, writes what it finds to w, and reports whether the
// check passes.
func run(w io.Writer, c check) (bool, error) {
	cov := coverage{}
	for _, p := range c.profiles {
		if err := cov.read(p); err != nil {
			return false, err
		}
	}
	allowed := allowlist{}
	if c.allow != "" {
		var err error
		if allowed, err = readAllowlist(c.allow); err != nil {
			return false, err
		}
	}
	funcs, err := exportedFuncs(c.root, c.nested)
	if err != nil {
		return false, err
	}
	return report(w, funcs, cov, allowed), nil
}
