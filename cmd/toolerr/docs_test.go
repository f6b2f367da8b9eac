package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

func TestDocsGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "docs_tools_codes", args: []string{"docs", "--format", "tools", "--codes", "RATE_LIMITED,not_found"}, exit: exitOK},
		{name: "docs_tools_codes_json", args: []string{"docs", "--json", "--format", "tools", "--codes", "CONFLICT"}, exit: exitOK},
		{name: "docs_bad_format", args: []string{"docs", "--format", "yaml"}, exit: exitUsage},
		{name: "docs_unknown_code", args: []string{"docs", "--format", "tools", "--codes", "NOT_FUOND"}, exit: exitUsage},
		{name: "docs_codes_markdown", args: []string{"docs", "--codes", "CONFLICT"}, exit: exitUsage},
		{name: "docs_extra_arg", args: []string{"docs", "extra"}, exit: exitUsage},
	})
}

// The full documents are errdocs's own, byte for byte (errdocs's tests
// hold their content; a golden copy here would only duplicate them).
func TestDocsFormats(t *testing.T) {
	reg := toolerr.Default()
	code, stdout, _ := runCommand([]string{"docs"}, "")
	require.Equal(t, exitOK, code)
	assert.Equal(t, string(errdocs.Markdown(reg)), stdout)

	openapi, err := errdocs.OpenAPI(reg)
	require.NoError(t, err)
	code, stdout, _ = runCommand([]string{"docs", "--format", "openapi"}, "")
	require.Equal(t, exitOK, code)
	assert.JSONEq(t, string(openapi), stdout)

	code, stdout, _ = runCommand([]string{"docs", "--format", "tools"}, "")
	require.Equal(t, exitOK, code)
	var tools []errdocs.ToolError
	require.NoError(t, json.Unmarshal([]byte(stdout), &tools))
	assert.Equal(t, errdocs.ToolErrors(reg), tools)

	code, stdout, _ = runCommand([]string{"docs", "--json", "--format", "markdown"}, "")
	require.Equal(t, exitOK, code)
	var wrapped map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &wrapped))
	assert.Equal(t, string(errdocs.Markdown(reg)), wrapped["document"])
}
