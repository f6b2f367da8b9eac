package main

import (
	"os"
	"testing"
)

func TestValidateGolden(t *testing.T) {
	valid, err := os.ReadFile("testdata/validate/valid.json")
	if err != nil {
		t.Fatal(err)
	}
	runGolden(t, []goldenCase{
		{name: "validate_valid", args: []string{"validate", "testdata/validate/valid.json"}, exit: exitOK},
		{name: "validate_valid_stdin", args: []string{"validate", "-"}, stdin: string(valid), exit: exitOK},
		{name: "validate_invalid", args: []string{"validate", "testdata/validate/invalid.json"}, exit: exitBad},
		{name: "validate_invalid_json", args: []string{"validate", "--json", "testdata/validate/invalid.json"}, exit: exitBad},
		{name: "validate_valid_json", args: []string{"validate", "--json", "testdata/validate/valid.json"}, exit: exitOK},
		{name: "validate_not_json", args: []string{"validate", "-"}, stdin: "<html>oops</html>", exit: exitBad},
		{name: "validate_missing_file", args: []string{"validate", "testdata/validate/absent.json"}, exit: exitUsage},
		{name: "validate_no_file", args: []string{"validate"}, exit: exitUsage},
	})
}
