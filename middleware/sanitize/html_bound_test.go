package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHTMLPartsCutAtAWord: a part of a page gathered up to its bound ends
// before the word the bound runs through, as every cut before the secret
// rules does, and takes no more text after it: a token cut one character
// short matches no rule, and text after the cut does not follow it.
func TestHTMLPartsCutAtAWord(t *testing.T) {
	const token = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ012345" // 40 bytes, the shape of a GitHub token
	fill := func(n int) string { return strings.Repeat("word ", n/5+1)[:n] }

	t.Run("visible text", func(t *testing.T) {
		// The bound falls 10 bytes into the token.
		lead := fill(maxHTMLVisible - 10)
		page := "<html><body><p>" + lead + token + " after</p><p>tail</p></body></html>"
		p := scanHTML(page)
		v := string(p.visible)
		assert.LessOrEqual(t, len(v), maxHTMLVisible)
		assert.NotContains(t, v, "ghp_", "a fragment of the token stayed")
		assert.NotContains(t, v, "tail", "text after the cut was appended")
		assert.True(t, strings.HasPrefix(lead, strings.TrimSpace(v)), "the words before the token stay")
		assert.Greater(t, len(v), maxHTMLVisible-20, "only the cut word goes")
	})
	t.Run("a word that began in an earlier text token", func(t *testing.T) {
		// The token is split over two text tokens by a comment; the
		// bound falls in its second half.
		lead := fill(maxHTMLVisible - 30)
		page := "<html><body><div>" + lead + token[:20] + "<!-- -->" + token[20:] + "</div></body></html>"
		v := string(scanHTML(page).visible)
		assert.NotContains(t, v, "ghp_")
	})
	t.Run("title", func(t *testing.T) {
		lead := fill(2*maxHTMLText - 5)
		p := scanHTML("<html><head><title>" + lead + token + "</title></head><body><h1>x</h1></body></html>")
		assert.NotContains(t, string(p.title), "ghp_")
		assert.LessOrEqual(t, len(p.title), 2*maxHTMLText)
	})
	t.Run("text that fits is kept whole", func(t *testing.T) {
		p := scanHTML("<html><body><p>Bad gateway " + token + "</p></body></html>")
		assert.Contains(t, string(p.visible), token, "nothing is cut below the bound")
	})
}
