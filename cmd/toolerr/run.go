package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit codes of every subcommand.
const (
	exitOK    = 0
	exitBad   = 1 // the thing checked is bad
	exitUsage = 2 // bad arguments, unreadable input
)

// maxInput bounds every file or standard input a subcommand reads.
const maxInput = 8 << 20

// subcommands maps a subcommand's name to its function.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"explain":  explain,
	"validate": validate,
	"docs":     docs,
	"check":    check,
	"classify": classifyCmd,
}

const usage = `usage: toolerr <command> [flags] [args]

commands:
  explain CODE                 document one error code
  validate FILE|-              check a problem body against the contract
  docs [--format F] [--codes]  document every code (markdown, openapi, tools)
  check SCHEMA ARGS|-          check tool arguments against a JSON Schema
  classify [--fixture DIR] FILE...
                               classify captured HTTP error responses

every command takes --json. exit codes: 0 ok, 1 bad input checked, 2 usage.
`

// run dispatches args to a subcommand and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "toolerr: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
	return cmd(args[1:], stdin, stdout, stderr)
}

// newFlags returns a flag set for a subcommand that reports to stderr,
// with the --json flag every subcommand takes.
func newFlags(name, args string, stderr io.Writer) (fs *flag.FlagSet, asJSON *bool) {
	fs = flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolerr %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs, fs.Bool("json", false, "print one JSON document")
}

// parseArgs is [parseFlags] that also requires between min and max
// positional arguments (max < 0: no upper bound), printing the usage when
// there are not.
func parseArgs(fs *flag.FlagSet, args []string, min, max int) ([]string, int) {
	pos, code := parseFlags(fs, args)
	if code >= 0 {
		return nil, code
	}
	if len(pos) < min || max >= 0 && len(pos) > max {
		fs.Usage()
		return nil, exitUsage
	}
	return pos, -1
}

// parseFlags parses args into fs, flags before, between or after the
// positional arguments, and returns the positional arguments and the exit
// code to stop with, or -1 to go on. -h is a success.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, int) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK
			}
			return nil, exitUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, -1
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), -1 // everything after -- is positional
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// readInput reads the file named, or stdin for "-", up to max bytes; a
// longer input is an error.
func readInput(name string, stdin io.Reader, max int64) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, max)
	}
	return b, nil
}

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
