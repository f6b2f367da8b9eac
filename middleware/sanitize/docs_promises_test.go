package sanitize

// Promises of the sanitizer in docs/ (sanitization.md, options.md,
// guarantees.md), checked on sanitize.New() without options. Each test
// also checks that its page still says what it checks.

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/docpage"
)

// "WithMaxInput(n) | 64 KiB read; the rest dropped before any stage" and
// "cap the input (64 KiB; the word the cap cuts is dropped too)": a text of
// exactly 64 KiB, mostly white space (collapsed later), is read whole; one
// byte more and the cap cuts its last word, which is dropped.
func TestOptionsPageDefaultMaxInput64KiB(t *testing.T) {
	docpage.Says(t, "../../docs/options.md",
		"| `WithMaxInput(n)` | 64 KiB read; the rest dropped before any stage |")
	docpage.Says(t, "../../docs/sanitization.md",
		"cap the input (64 KiB; the word the cap cuts is dropped too")
	s := New()
	const head, tail = "Headline ", "Tailword12"
	fits := head + strings.Repeat(" ", 64<<10-len(head)-len(tail)) + tail
	require.Len(t, fits, 64<<10)
	out, r := s.Clean(fits)
	assert.Equal(t, "Headline Tailword12", out, "64 KiB is read whole")
	assert.Zero(t, r.Count(KindInputCapped))

	out, r = s.Clean(fits + "X")
	assert.Equal(t, "Headline", out, "past 64 KiB the rest is dropped, and the word the cap cut")
	assert.Equal(t, 1, r.Count(KindInputCapped), "one byte past the cap")
}

// "WithMaxOutput(n) | 2048 bytes": a long text is cut at a rune boundary
// to 2048 bytes, ending in "…".
func TestOptionsPageDefaultMaxOutput2048(t *testing.T) {
	docpage.Says(t, "../../docs/options.md",
		"| `WithMaxOutput(n)` | 2048 bytes, the contract's limit on `detail` |")
	docpage.Says(t, "../../docs/sanitization.md",
		"cut at a rune boundary (2048 bytes, ending in `…`)")
	out := New().CleanText(strings.Repeat("Ålesund harbour ", 400))
	assert.LessOrEqual(t, len(out), 2048)
	assert.Greater(t, len(out), 2000, "cut at the limit, not far below")
	assert.True(t, strings.HasSuffix(out, "…"))
	assert.True(t, strings.ToValidUTF8(out, "") == out, "cut at a rune boundary")
}

// "WithHostname(name) | os.Hostname() when New runs": the server's own
// host name becomes [internal-host] (names under 3 bytes are not looked
// for: hosts.go).
func TestOptionsPageDefaultHostnameIsRedacted(t *testing.T) {
	docpage.Says(t, "../../docs/options.md",
		"| `WithHostname(name)` | `os.Hostname()` when `New` runs |")
	docpage.Says(t, "../../docs/sanitization.md",
		"and the server's own host name when it has 3 bytes or more",
		"become `[internal-host]`")
	name, err := os.Hostname()
	require.NoError(t, err)
	const msg = "upstream call from %s failed after 3 tries"
	if len(name) < 3 {
		// The stated limit: a name this short is not looked for, since it
		// would match ordinary words. What holds for a longer name is
		// checked below on one set as the default would set it.
		assert.Equal(t, fmt.Sprintf(msg, name), New().CleanText(fmt.Sprintf(msg, name)), "a %d-byte host name is left alone", len(name))
		name = "tool-host-7"
		out, _ := New(WithHostname(name)).Clean(fmt.Sprintf(msg, name))
		assert.NotContains(t, out, name)
		return
	}
	out, r := New().Clean(fmt.Sprintf(msg, name))
	assert.NotContains(t, out, name)
	assert.Contains(t, out, "[internal-host]")
	assert.Positive(t, r.Count(KindInternalHost))
	assert.Contains(t, out, "failed after 3 tries")
}

// "WithSecrets(values…) | none": without it, a value with no secret shape
// and no credential name beside it passes (the stated limit of docs/guarantees.md), so
// the option is what protects such values.
func TestOptionsPageDefaultNoConfiguredSecrets(t *testing.T) {
	docpage.Says(t, "../../docs/options.md",
		"| `WithSecrets(values…)` | none;")
	docpage.Says(t, "../../docs/guarantees.md",
		"a random string with no provider prefix and no credential-like name beside it")
	const v = "Zq8vTr5mWx2L"
	assert.Contains(t, New().CleanText("tenant Zq8vTr5mWx2L was archived"), v)
	assert.NotContains(t, New(WithSecrets(v)).CleanText("tenant Zq8vTr5mWx2L was archived"), v)
}
