package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

// docs prints the default registry's documentation as Markdown, OpenAPI or
// the tools' compact errors array. --json prints the tools format, or wraps
// the Markdown or OpenAPI document in a JSON object.
func docs(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON := newFlags("docs", "[--json] [--format markdown|openapi|tools] [--codes A,B]", stderr)
	format := fs.String("format", "markdown", "markdown, openapi or tools")
	codesFlag := fs.String("codes", "", "comma-separated codes to list (tools format only)")
	_, code := parseArgs(fs, args, 0, 0)
	if code >= 0 {
		return code
	}
	reg := toolerr.Default()
	var codes []string
	for c := range strings.SplitSeq(*codesFlag, ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c == "" {
			continue
		}
		if _, ok := reg.Lookup(c); !ok {
			fmt.Fprintf(stderr, "toolerr docs: unknown code %q%s\n", c, nearestCodes(reg, c))
			return exitUsage
		}
		codes = append(codes, c)
	}
	if len(codes) > 0 && *format != "tools" {
		fmt.Fprintln(stderr, "toolerr docs: --codes applies to --format tools only")
		return exitUsage
	}
	switch *format {
	case "markdown":
		md := errdocs.Markdown(reg)
		if *asJSON {
			writeJSON(stdout, map[string]string{"format": "markdown", "document": string(md)})
			return exitOK
		}
		_, _ = stdout.Write(md)
	case "openapi":
		doc, err := errdocs.OpenAPI(reg)
		if err != nil {
			fmt.Fprintf(stderr, "toolerr docs: %v\n", err)
			return exitUsage
		}
		if *asJSON {
			writeJSON(stdout, map[string]string{"format": "openapi", "document": string(doc)})
			return exitOK
		}
		_, _ = stdout.Write(doc)
		if len(doc) > 0 && doc[len(doc)-1] != '\n' {
			fmt.Fprintln(stdout)
		}
	case "tools":
		writeJSON(stdout, errdocs.ToolErrors(reg, codes...))
	default:
		fmt.Fprintf(stderr, "toolerr docs: unknown format %q (markdown, openapi or tools)\n", *format)
		return exitUsage
	}
	return exitOK
}
