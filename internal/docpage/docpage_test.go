package docpage

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that keeps what Says reports.
type recorder struct {
	testing.TB
	errors []string
	fatal  string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

// writePage writes a page wrapped as Markdown pages are.
func writePage(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "options.md")
	require.NoError(t, os.WriteFile(path, []byte("| `WithMaxInput(n)` | 64 KiB read; the rest\n"+
		"dropped before any stage |\n\ncap the input (64 KiB;  the word the cap cuts\n   is dropped too)\n"), 0o600))
	return path
}

// TestSaysReadsAcrossLineBreaks: a quote is found whatever the page's
// wrapping and spacing, the quote's own included.
func TestSaysReadsAcrossLineBreaks(t *testing.T) {
	r := &recorder{TB: t}
	Says(r, writePage(t), "64 KiB read; the rest dropped before any stage",
		"cap the input (64 KiB; the word the cap cuts is dropped too)",
		"`WithMaxInput(n)` | 64 KiB\nread;")
	assert.Empty(t, r.errors)
	assert.Empty(t, r.fatal)
}

// TestSaysFailsOnWhatThePageNoLongerSays: a changed number or a missing
// sentence is an error naming the page and the quote; every quote is
// checked, not only the first.
func TestSaysFailsOnWhatThePageNoLongerSays(t *testing.T) {
	r := &recorder{TB: t}
	path := writePage(t)
	Says(r, path, "128 KiB read", "64 KiB read", "the rest is kept")
	assert.Equal(t, []string{path + " no longer says: 128 KiB read", path + " no longer says: the rest is kept"}, r.errors)
}

// TestSaysStopsOnAMissingPage: a page moved or deleted stops the test.
func TestSaysStopsOnAMissingPage(t *testing.T) {
	r := &recorder{TB: t}
	Says(r, filepath.Join(t.TempDir(), "gone.md"), "anything")
	assert.Contains(t, r.fatal, "gone.md")
	assert.Empty(t, r.errors)
}
