package translate

import (
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/textcut"
)

// Text the translators read is cut before the sanitizer sees it: a body at
// its cap, a page at the scan limit, a message at its length bound. A cut
// through the middle of a word could leave the start of a token that no
// secret rule recognizes any more ("ghp_R4nd0m…" one character short), and
// the sanitizer cannot know a text was cut. So every cut here is
// textcut's cut at a word: the word the cap runs through is dropped,
// however long, and a text that is one word throughout is dropped whole.
// Fail closed.

// trimAtWord cuts s to at most max bytes at a word (textcut.AtWord),
// drops the invalid bytes that then end it, and trims it. A text that fits is left
// as it is.
func trimAtWord(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = textcut.AtWord(s, max)
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return strings.TrimSpace(s)
}

// clipText trims s and bounds it to jsonTextMax bytes at a word (see
// trimAtWord): a longer text that is one word throughout goes whole.
func clipText(s string) string {
	return trimAtWord(strings.TrimSpace(s), jsonTextMax)
}

// cutText bounds s to max bytes at a word (textcut.AtWord) and repairs its
// UTF-8.
func cutText(s string, max int) string {
	return strings.ToValidUTF8(textcut.AtWord(s, max), "\uFFFD")
}
