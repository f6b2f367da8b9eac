package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// checkJSON is the --json output of check: the VALIDATION_FAILED problem
// when the arguments break the schema.
type checkJSON struct {
	Valid   bool            `json:"valid"`
	Problem json.RawMessage `json:"problem,omitempty"`
}

// check validates a tool call's arguments against a JSON Schema with
// argcheck: exit 1 when there are violations.
func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON := newFlags("check", "[--json] SCHEMA ARGS|-", stderr)
	pos, code := parseArgs(fs, args, 2, 2)
	if code >= 0 {
		return code
	}
	if pos[0] == "-" {
		fmt.Fprintln(stderr, "toolerr check: the schema must be a file; only the arguments can be read from standard input")
		return exitUsage
	}
	schemaDoc, err := readInput(pos[0], nil, maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolerr check: %v\n", err)
		return exitUsage
	}
	schema, err := argcheck.Compile(schemaDoc)
	if err != nil {
		fmt.Fprintf(stderr, "toolerr check: %s: %v\n", pos[0], err)
		return exitUsage
	}
	raw, err := readInput(pos[1], stdin, maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "toolerr check: %v\n", err)
		return exitUsage
	}
	cerr := schema.CheckJSON(raw)
	if cerr == nil {
		if *asJSON {
			writeJSON(stdout, checkJSON{Valid: true})
		} else {
			fmt.Fprintln(stdout, "valid")
		}
		return exitOK
	}
	e, ok := toolerr.From(cerr)
	if !ok {
		fmt.Fprintf(stderr, "toolerr check: %v\n", cerr)
		return exitUsage
	}
	if *asJSON {
		problem, _ := e.MarshalJSON()
		writeJSON(stdout, checkJSON{Problem: problem})
		return exitBad
	}
	writeViolations(stdout, e)
	return exitBad
}

// writeViolations prints e's violations, one a line with its repair, then
// its hint and repaired example request.
func writeViolations(w io.Writer, e *toolerr.Error) {
	fmt.Fprintf(w, "%s: %s\n", e.Code, e.Detail)
	for _, v := range e.Violations {
		field := v.Field
		if field == "" {
			field = "(root)"
		}
		fmt.Fprintf(w, "  %s: %s\n", field, v.Reason)
		if v.AllowedValues != nil {
			fmt.Fprintf(w, "    allowed: %s\n", compactJSON(v.AllowedValues))
		}
		if v.SuggestedValue != nil {
			fmt.Fprintf(w, "    repair: %s\n", compactJSON(v.SuggestedValue))
		}
	}
	if e.Hint != "" {
		fmt.Fprintf(w, "hint: %s\n", e.Hint)
	}
	if e.ExampleRequest != nil {
		fmt.Fprintf(w, "repaired arguments: %s\n", compactJSON(e.ExampleRequest))
	}
}

// compactJSON renders v as compact JSON, or with %v when it is not JSON.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
