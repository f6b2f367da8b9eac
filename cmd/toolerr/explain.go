package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/errdocs"
)

// explainJSON is the --json output of explain.
type explainJSON struct {
	Code      string           `json:"code"`
	Title     string           `json:"title"`
	Category  toolerr.Category `json:"category"`
	Severity  toolerr.Severity `json:"severity"`
	Status    int              `json:"status"`
	Retryable bool             `json:"retryable"`
	Stability string           `json:"stability"`
	Hint      string           `json:"hint"`
	HumanHint string           `json:"human_hint,omitempty"`
	Cause     string           `json:"cause,omitempty"`
	Repair    []string         `json:"repair,omitempty"`
	Related   []string         `json:"related,omitempty"`
	DocsURL   string           `json:"docs_url,omitempty"`
	Markdown  string           `json:"markdown"`
}

// explain prints the documentation of one code of the default registry.
// An unknown code is a usage error (exit 2) naming the nearest codes.
func explain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON := newFlags("explain", "[--json] CODE", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	reg := toolerr.Default()
	name := strings.ToUpper(strings.TrimSpace(pos[0]))
	def, ok := reg.Lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "toolerr explain: unknown code %q%s\n", pos[0], nearestCodes(reg, name))
		return exitUsage
	}
	section := codeSection(errdocs.Markdown(reg), def.Code)
	if !*asJSON {
		fmt.Fprint(stdout, section)
		return exitOK
	}
	writeJSON(stdout, explainJSON{
		Code: def.Code, Title: def.Title, Category: def.Category, Severity: def.Severity,
		Status: def.Status, Retryable: def.Retryable, Stability: string(def.Stability),
		Hint: def.Hint, HumanHint: def.HumanHint, Cause: def.Cause, Repair: def.Repair,
		Related: def.Related, DocsURL: def.DocsURL, Markdown: section,
	})
	return exitOK
}

// nearestCodes returns "; did you mean A, B?" for the codes of reg close
// to name, or "".
func nearestCodes(reg *toolerr.Registry, name string) string {
	defs := reg.Defs()
	codes := make([]string, len(defs))
	for i, d := range defs {
		codes[i] = d.Code
	}
	near, _ := argcheck.NearestNames(name, codes, 3)
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

// codeSection cuts the section of code out of the Markdown document md:
// from its "### CODE" heading to the next heading of level 2 or 3.
func codeSection(md []byte, code string) string {
	head := []byte("\n### " + code + "\n")
	i := bytes.Index(md, head)
	if i < 0 {
		return ""
	}
	rest := md[i+1:]
	end := len(rest)
	for _, next := range [][]byte{[]byte("\n### "), []byte("\n## ")} {
		if j := bytes.Index(rest[len(head)-1:], next); j >= 0 && j+len(head)-1 < end {
			end = j + len(head) - 1
		}
	}
	return strings.TrimRight(string(rest[:end]), "\n") + "\n"
}
