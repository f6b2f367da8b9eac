package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden")

// goldenCase is one run of the command: its arguments, standard input,
// the exit code it must end with and the golden file holding its output.
type goldenCase struct {
	name  string // testdata/golden/<name>.golden
	args  []string
	stdin string
	exit  int
}

// runCommand runs the command in-process and returns its exit code,
// stdout and stderr.
func runCommand(args []string, stdin string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// runGolden runs every case and compares its exit code and output with
// its golden file (rewritten with -update).
func runGolden(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCommand(c.args, c.stdin)
			assert.Equal(t, c.exit, code, "exit code; stderr: %s", stderr)
			got := fmt.Sprintf("$ toolerr %s\nexit %d\n--- stdout\n%s--- stderr\n%s",
				strings.Join(c.args, " "), code, stdout, stderr)
			path := filepath.Join("testdata", "golden", c.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./cmd/toolerr -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
}

func TestUsage(t *testing.T) {
	runGolden(t, []goldenCase{
		{name: "usage_none", args: nil, exit: exitUsage},
		{name: "usage_unknown", args: []string{"frobnicate"}, exit: exitUsage},
		{name: "usage_help", args: []string{"help"}, exit: exitOK},
	})
}
