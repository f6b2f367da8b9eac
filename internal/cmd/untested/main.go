// Command untested lists the exported functions and methods of a module
// that no test reaches, and fails when one is not in the allowlist.
//
// It reads a coverage profile of the module's tests, written by go test
// with -coverpkg set to the module's packages (so that a function reached
// by the tests of any package counts), and the module's Go sources. An
// exported function, or an exported method of an exported type, of a
// package other than main, none of whose statements the profile counts
// as run, is untested. The allowlist names the ones that may stay so, one
// a line with the reason after a '#':
//
//	toolerr/internal/sdkmajors.Run # its callers are the nested modules mappers/majors/*
//
// Lines that are blank or start with '#' are comments. CI fails (exit 1)
// on an untested name not in the allowlist, on an allowlisted name without
// a reason, and on an allowlisted name that is tested now or no longer
// exists, so the allowlist stays short and true. Names are the package's
// import path with the module path cut to its last element, then the
// function, or the receiver in parentheses and the method.
//
// Usage, from the module's root:
//
//	go test -coverpkg=./... -coverprofile=cover.out ./...
//	go run ./internal/cmd/untested -profile cover.out -allow .ci/untested.allow
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	profile := flag.String("profile", "", "coverage profile of the module's tests, with -coverpkg set to its packages")
	allow := flag.String("allow", "", "allowlist of the exported names that may stay untested")
	root := flag.String("root", ".", "root of the module (the folder of its go.mod)")
	flag.Parse()
	if *profile == "" {
		fmt.Fprintln(os.Stderr, "untested: -profile is required")
		os.Exit(2)
	}
	ok, err := run(os.Stdout, *root, *profile, *allow)
	if err != nil {
		fmt.Fprintln(os.Stderr, "untested:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run checks the module at root against the profile and the allowlist
// (none when allow is ""), writes what it finds to w, and reports whether
// the check passes.
func run(w io.Writer, root, profile, allow string) (bool, error) {
	cov, err := readProfile(profile)
	if err != nil {
		return false, err
	}
	allowed := allowlist{}
	if allow != "" {
		if allowed, err = readAllowlist(allow); err != nil {
			return false, err
		}
	}
	funcs, err := exportedFuncs(root)
	if err != nil {
		return false, err
	}
	return report(w, funcs, cov, allowed), nil
}
