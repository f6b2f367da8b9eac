package toolerr_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markdownLink is a link's target in Markdown text whose code has been
// removed: [text](target), the text possibly over several lines.
var markdownLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)

// codeSpan is an inline code span, which holds no link.
var codeSpan = regexp.MustCompile("(`+)[^`]*?`+")

// TestEveryDocsLinkResolves: every relative link of README.md and of the
// pages of docs/ names a file that exists and, when it has a #fragment into
// a Markdown file, a heading of that file, by GitHub's anchor rule. A page
// moved or a heading renamed breaks the test, not the reader's click.
func TestEveryDocsLinkResolves(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages, "docs/ holds the reference pages; none found")
	checked := 0
	for _, page := range append([]string{"README.md"}, pages...) {
		for _, target := range relativeLinks(t, page) {
			checked++
			file, fragment, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			if _, err := os.Stat(path); err != nil {
				assert.Fail(t, "a link names no file", "%s: %s (%v)", page, target, err)
				continue
			}
			if fragment == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			assert.Contains(t, headingAnchors(t, path), fragment, "%s: %s names no heading of %s", page, target, path)
		}
	}
	assert.Greater(t, checked, len(pages), "the README links every page, and the pages link each other")
}

// TestReadmeLinksEveryDocsPage: no page of docs/ is left where a newcomer
// cannot find it from the README.
func TestReadmeLinksEveryDocsPage(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages, "docs/ holds the reference pages; none found")
	linked := map[string]bool{}
	for _, target := range relativeLinks(t, "README.md") {
		file, _, _ := strings.Cut(target, "#")
		linked[filepath.Clean(filepath.FromSlash(file))] = true
	}
	for _, page := range pages {
		assert.True(t, linked[page], "the README does not link %s", page)
	}
}

// TestHeadingAnchorsFollowGitHub: the anchor rule the link test relies on,
// on headings of this repository's pages and on the rule's corner cases.
func TestHeadingAnchorsFollowGitHub(t *testing.T) {
	for heading, want := range map[string]string{
		"The observation: what a model reads":       "the-observation-what-a-model-reads",
		"Guarantees, and their limits":              "guarantees-and-their-limits",
		"MCP in every Go MCP server (issue 25)":     "mcp-in-every-go-mcp-server-issue-25",
		"`retrygate` under load: a_b-c":             "retrygate-under-load-a_b-c",
		"What it changes for an agent: the Harbor…": "what-it-changes-for-an-agent-the-harbor",
		"Ålesund  Harbour":                          "ålesund--harbour",
	} {
		assert.Equal(t, want, anchor(heading), heading)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "p.md")
	require.NoError(t, os.WriteFile(page, []byte("# Stores\n\n```sh\n# not a heading\n```\n\n## Stores\n### Thrash guard\n"), 0o600))
	assert.Equal(t, map[string]bool{"stores": true, "stores-1": true, "thrash-guard": true}, headingAnchors(t, page))
}

// relativeLinks returns the targets of the links of a Markdown file that
// point into the repository: no scheme, outside code.
func relativeLinks(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var prose []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			prose = append(prose, line)
		}
	}
	text := codeSpan.ReplaceAllString(strings.Join(prose, "\n"), "")
	var out []string
	for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
		if target := m[1]; !strings.Contains(target, "://") && !strings.HasPrefix(target, "mailto:") {
			out = append(out, target)
		}
	}
	return out
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown file, a repeated one numbered from 1 as GitHub does.
func headingAnchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	out := map[string]bool{}
	seen := map[string]int{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if in || !strings.HasPrefix(line, "#") || !ok {
			continue
		}
		a := anchor(title)
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// anchor is GitHub's anchor of a heading: lower case, punctuation other
// than '-' and '_' dropped, each space a '-'.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
