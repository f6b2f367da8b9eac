package toolerr_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snippet is a block of Go code shown to users.
type snippet struct {
	where string // file:line
	code  string
}

// TestEverySnippetIsCompiled: every Go snippet of README.md, of the pages
// of docs/ and of the doc comments is part of a compiled Example or test,
// so no snippet a user copies can stop compiling unnoticed. A snippet
// counts as compiled when its lines, trimmed, appear in order and together
// in some _test.go file or example program of the module. A docs/ that is
// missing, or has no page or no snippet, fails the test rather than
// letting it pass on nothing.
func TestEverySnippetIsCompiled(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages, "docs/ holds the reference pages; none found")
	var snippets []snippet
	for _, page := range pages {
		snippets = append(snippets, markdownSnippets(t, page)...)
	}
	require.NotEmpty(t, snippets, "the pages of docs/ show Go snippets; none found")
	readme := markdownSnippets(t, "README.md")
	require.NotEmpty(t, readme, "the README's quickstart shows Go snippets; none found")
	snippets = append(snippets, readme...)
	var compiled strings.Builder
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, "_test.go") && path != "snippets_test.go",
			strings.HasPrefix(path, "examples"+string(filepath.Separator)) && strings.HasSuffix(path, ".go"):
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			compiled.WriteString(normalize(string(b)))
			compiled.WriteString("\n")
			if !strings.HasSuffix(path, "_test.go") {
				snippets = append(snippets, docSnippets(t, path)...)
			}
		case strings.HasSuffix(path, ".go"):
			snippets = append(snippets, docSnippets(t, path)...)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, snippets)
	haystack := compiled.String()
	for _, s := range snippets {
		assert.True(t, strings.Contains(haystack, normalize(s.code)),
			"%s: this snippet is in no compiled Example or test:\n%s", s.where, s.code)
	}
}

// markdownSnippets returns the ```go blocks of a Markdown file.
func markdownSnippets(t *testing.T, path string) []snippet {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []snippet
	var cur []string
	in, start := false, 0
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case !in && strings.HasPrefix(line, "```go"):
			in, start, cur = true, i+1, nil
		case in && strings.HasPrefix(line, "```"):
			in = false
			out = append(out, snippet{where: path + ":" + itoa(start), code: strings.Join(cur, "\n")})
		case in:
			cur = append(cur, line)
		}
	}
	return out
}

// goish finds Go statements in a block that does not parse on its own.
var goish = regexp.MustCompile(`:=|\bfunc\(|\bfunc [A-Za-z(]|\breturn\b|\br\.Use\(`)

// docSnippets returns the indented code blocks of a Go file's comments
// that are Go: they parse as declarations or statements, or hold Go
// statements.
func docSnippets(t *testing.T, path string) []snippet {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []snippet
	var cur []string
	start := 0
	flush := func() {
		for len(cur) > 0 && cur[len(cur)-1] == "" {
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 0 {
			code := strings.Join(cur, "\n")
			if parsesAsGo(code) || goish.MatchString(code) {
				out = append(out, snippet{where: path + ":" + itoa(start), code: code})
			}
		}
		cur = nil
	}
	for i, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case strings.HasPrefix(trimmed, "//\t"):
			if cur == nil {
				start = i + 1
			}
			cur = append(cur, strings.TrimPrefix(trimmed, "//\t"))
		case trimmed == "//" && cur != nil:
			cur = append(cur, "")
		default:
			flush()
		}
	}
	flush()
	return out
}

// parsesAsGo reports whether code parses as Go declarations or statements.
func parsesAsGo(code string) bool {
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, "", "package p\n"+code, 0); err == nil {
		return true
	}
	_, err := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+code+"\n}", 0)
	return err == nil
}

// normalize trims every line and drops empty ones.
func normalize(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteString(line)
			b.WriteString("\n")
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}
