package sanitize

// README promises of the sanitizer, checked on sanitize.New() without
// options ("Sanitization", "Options and defaults").

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// "WithMaxInput(n) | 64 KiB read; the rest dropped before any stage" and
// "cap the input (64 KiB; the word the cap cuts is dropped too)": a text of
// exactly 64 KiB, mostly white space (collapsed later), is read whole; one
// byte more and the cap cuts its last word, which is dropped.
func TestREADMEDefaultMaxInput64KiB(t *testing.T) {
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
func TestREADMEDefaultMaxOutput2048(t *testing.T) {
	out := New().CleanText(strings.Repeat("Ålesund harbour ", 400))
	assert.LessOrEqual(t, len(out), 2048)
	assert.Greater(t, len(out), 2000, "cut at the limit, not far below")
	assert.True(t, strings.HasSuffix(out, "…"))
	assert.True(t, strings.ToValidUTF8(out, "") == out, "cut at a rune boundary")
}

// "WithHostname(name) | os.Hostname() when New runs": the server's own
// host name becomes [internal-host] (names under 3 bytes are not looked
// for: hosts.go).
func TestREADMEDefaultHostnameIsRedacted(t *testing.T) {
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
// and no credential name beside it passes (the README's stated limit), so
// the option is what protects such values.
func TestREADMEDefaultNoConfiguredSecrets(t *testing.T) {
	const v = "Zq8vTr5mWx2L"
	assert.Contains(t, New().CleanText("tenant Zq8vTr5mWx2L was archived"), v)
	assert.NotContains(t, New(WithSecrets(v)).CleanText("tenant Zq8vTr5mWx2L was archived"), v)
}
