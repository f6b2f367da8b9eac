package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

// assertEveryCode checks that doc has a section, and an index entry, for
// every code of the default registry.
func assertEveryCode(t *testing.T, doc string) {
	t.Helper()
	defs := toolerr.Default().Defs()
	require.NotEmpty(t, defs)
	for _, d := range defs {
		assert.Contains(t, doc, "\n### "+d.Code+"\n", "section of %s", d.Code)
		assert.Contains(t, doc, "| ["+d.Code+"](#"+strings.ToLower(d.Code)+") |", "index entry of %s", d.Code)
		assert.Contains(t, doc, `"code": "`+d.Code+`"`, "example payload of %s", d.Code)
	}
}

func TestRunWritesEveryDefaultCodeToStdout(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run("", &out))
	assert.True(t, strings.HasPrefix(out.String(), "# Error codes\n"))
	assertEveryCode(t, out.String())
}

func TestRunWritesTheFileNamedByO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ERRORS.md")
	var out bytes.Buffer
	require.NoError(t, run(path, &out))
	assert.Zero(t, out.Len(), "nothing on stdout with -o")
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(errdocs.Markdown(toolerr.Default())), string(doc))
	assertEveryCode(t, string(doc))
}

func TestRunReportsAnUnwritableFile(t *testing.T) {
	err := run(filepath.Join(t.TempDir(), "missing", "ERRORS.md"), &bytes.Buffer{})
	assert.Error(t, err)
}
