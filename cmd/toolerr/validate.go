package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolerr/toolerr"
)

// validateJSON is the --json output of validate.
type validateJSON struct {
	Valid bool   `json:"valid"`
	Error string `json:"error,omitempty"`
}

// validate checks a problem body against the contract: exit 1 when it is
// invalid.
func validate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON := newFlags("validate", "[--json] FILE|-", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	body, err := readInput(pos[0], stdin, maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolerr validate: %v\n", err)
		return exitUsage
	}
	verr := toolerr.Validate(body)
	out := validateJSON{Valid: verr == nil}
	if verr != nil {
		out.Error = verr.Error()
	}
	switch {
	case *asJSON:
		writeJSON(stdout, out)
	case verr == nil:
		fmt.Fprintln(stdout, "valid")
	default:
		fmt.Fprintln(stdout, "invalid:")
		for line := range strings.SplitSeq(out.Error, "\n") {
			fmt.Fprintf(stdout, "  %s\n", line)
		}
	}
	if verr != nil {
		return exitBad
	}
	return exitOK
}
