// Command errdocs writes the Markdown documentation of toolerr's built-in
// error codes ([errdocs.Markdown] of [toolerr.Default]): one section
// per code with its classification, cause, repair steps, hints, an example
// payload and related codes.
//
//	go run ./examples/errdocs               # to standard output
//	go run ./examples/errdocs -o ERRORS.md  # to a file
//
// A service documents its own codes the same way, from the registry that
// extends Default: errdocs.Markdown(reg).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

func main() {
	out := flag.String("o", "", "write the Markdown to this file instead of standard output")
	flag.Parse()
	if err := run(*out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "errdocs:", err)
		os.Exit(1)
	}
}

// run writes the Markdown of the default registry to the file named path,
// or to stdout when path is empty.
func run(path string, stdout io.Writer) error {
	doc := errdocs.Markdown(toolerr.Default())
	if path == "" {
		_, err := stdout.Write(doc)
		return err
	}
	return os.WriteFile(path, doc, 0o644)
}
