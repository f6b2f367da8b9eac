package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func TestExplainGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "explain_text", args: []string{"explain", "RATE_LIMITED"}, exit: exitOK},
		{name: "explain_lower_case", args: []string{"explain", "not_found"}, exit: exitOK},
		{name: "explain_json", args: []string{"explain", "--json", "VALIDATION_FAILED"}, exit: exitOK},
		{name: "explain_json_after", args: []string{"explain", "CONFLICT", "--json"}, exit: exitOK},
		{name: "explain_unknown", args: []string{"explain", "RATE_LIMTED"}, exit: exitUsage},
		{name: "explain_no_code", args: []string{"explain"}, exit: exitUsage},
		{name: "explain_two_codes", args: []string{"explain", "CONFLICT", "NOT_FOUND"}, exit: exitUsage},
		{name: "explain_bad_flag", args: []string{"explain", "--yaml", "CONFLICT"}, exit: exitUsage},
	})
}

// Every code of the default registry has a section of its own: its
// heading, its title, and no other code's heading.
func TestExplainEveryCode(t *testing.T) {
	for _, d := range toolerr.Default().Defs() {
		code, stdout, stderr := runCommand([]string{"explain", "--json", d.Code}, "")
		require.Equal(t, exitOK, code, stderr)
		var got explainJSON
		require.NoError(t, json.Unmarshal([]byte(stdout), &got))
		assert.Equal(t, d.Code, got.Code)
		assert.Equal(t, d.Status, got.Status)
		assert.Contains(t, got.Markdown, "### "+d.Code+"\n")
		assert.Contains(t, got.Markdown, d.Title)
		assert.Equal(t, 1, countHeadings(got.Markdown), "%s: one section", d.Code)
	}
}

// countHeadings counts the lines of md that start a section.
func countHeadings(md string) int {
	n := 0
	for i := 0; i < len(md); i++ {
		if (i == 0 || md[i-1] == '\n') && len(md)-i > 3 && (md[i:i+3] == "## " || md[i:i+4] == "### ") {
			n++
		}
	}
	return n
}
