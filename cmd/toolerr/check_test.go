package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckGolden(t *testing.T) {
	const schema = "testdata/check/schema.json"
	runGolden(t, []goldenCase{
		{name: "check_ok", args: []string{"check", schema, "testdata/check/args_ok.json"}, exit: exitOK},
		{name: "check_ok_json", args: []string{"check", "--json", schema, "testdata/check/args_ok.json"}, exit: exitOK},
		{name: "check_bad", args: []string{"check", schema, "testdata/check/args_bad.json"}, exit: exitBad},
		{name: "check_bad_json", args: []string{"check", "--json", schema, "testdata/check/args_bad.json"}, exit: exitBad},
		{name: "check_repairable", args: []string{"check", schema, "-"}, stdin: `{"limit": "25", "mode": "Express"}`, exit: exitBad},
		{name: "check_args_not_json", args: []string{"check", schema, "-"}, stdin: `{limit: 1`, exit: exitBad},
		{name: "check_schema_not_json", args: []string{"check", "testdata/check/schema_bad.json", "-"}, stdin: `{}`, exit: exitUsage},
		{name: "check_missing_schema", args: []string{"check", "testdata/check/absent.json", "-"}, stdin: `{}`, exit: exitUsage},
		{name: "check_schema_stdin", args: []string{"check", "-", "testdata/check/args_ok.json"}, exit: exitUsage},
		{name: "check_one_arg", args: []string{"check", schema}, exit: exitUsage},
	})
}

// The repairs check prints are argcheck's: applied, they give arguments
// that pass.
func TestCheckRepairsValidate(t *testing.T) {
	code, stdout, _ := runCommand([]string{"check", "--json", "testdata/check/schema.json", "testdata/check/args_repairable.json"}, "")
	require.Equal(t, exitBad, code)
	var out struct {
		Problem struct {
			ExampleRequest json.RawMessage `json:"example_request"`
		} `json:"problem"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	require.NotEmpty(t, out.Problem.ExampleRequest, "every violation has a repair")
	code, _, stderr := runCommand([]string{"check", "testdata/check/schema.json", "-"}, string(out.Problem.ExampleRequest))
	assert.Equal(t, exitOK, code, stderr)
}
