package translate

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/textcut"
)

// Reading a proxy's error page: its title, a heading, a plain-text line,
// with work bounded by the body.

const (
	// pageScanLimit bounds how much of a body the page readers search:
	// every proxy's signature sits near the start of its page.
	pageScanLimit = 16 << 10
	// pageMessageMax bounds a message read from a page or a text line.
	pageMessageMax = 200
)

// pageHead returns the start of body that the page readers search, ending
// at a word boundary (see cut.go).
func pageHead(body []byte) []byte {
	return textcut.AtWord(body, pageScanLimit)
}

// tagNeedles returns the opening ("<title") and closing ("</title") of
// tag, without building them for the tags the translators read.
func tagNeedles(tag string) (open, close string) {
	switch tag {
	case "title":
		return "<title", "</title"
	case "h1":
		return "<h1", "</h1"
	case "h2":
		return "<h2", "</h2"
	case "message":
		return "<message", "</message"
	case "code":
		return "<code", "</code"
	}
	return "<" + tag, "</" + tag
}

// pageElement returns the cleaned text of the first <tag> element in the
// start of body, or "". Markup inside the element is dropped.
func pageElement(body []byte, tag string) string {
	head := pageHead(body)
	open, close := tagNeedles(tag)
	for from := 0; from < len(head); {
		i := asciifold.Index(head[from:], open)
		if i < 0 {
			return ""
		}
		i += from + len(open)
		// "<title>" or "<title lang=…>", not "<titles>".
		if i < len(head) && (head[i] == '>' || head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r') {
			gt := indexByteFrom(head, '>', i)
			if gt < 0 {
				return ""
			}
			rest := head[gt+1:]
			end := asciifold.Index(rest, close)
			if end < 0 {
				end = len(rest)
			}
			return fragmentText(rest[:end], pageMessageMax)
		}
		from = i
	}
	return ""
}

// indexByteFrom returns the index of c in b at or after from, or -1.
func indexByteFrom(b []byte, c byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// pageEntities are the character references proxies' pages use.
var pageEntities = strings.NewReplacer(
	"&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'",
	"&#x27;", "'", "&apos;", "'", "&nbsp;", " ", "&#160;", " ",
)

// fragmentText turns a fragment of HTML into one line of text: tags are
// dropped, the common character references decoded, white space collapsed,
// invalid UTF-8 replaced, and the result cut to at most max bytes.
func fragmentText(b []byte, max int) string {
	if isPlainFragment(b, max) {
		return trimAtWord(string(b), max) // what the markup walk below would give, built at once
	}
	return markupFragmentText(b, max)
}

// isPlainFragment reports whether b is printable ASCII without markup or
// references, its words separated by single spaces, and short enough for
// markupFragmentText to read whole: text that markupFragmentText returns as
// it is, cut to max.
func isPlainFragment(b []byte, max int) bool {
	if len(b) > 4*max {
		return false
	}
	for i, c := range b {
		switch {
		case c == ' ':
			if i == 0 || i == len(b)-1 || b[i-1] == ' ' {
				return false
			}
		case c <= ' ' || c >= 0x7f || c == '<' || c == '&':
			return false
		}
	}
	return true
}

// markupFragmentText is fragmentText for any fragment: it walks the bytes,
// dropping tags and collapsing white space.
func markupFragmentText(b []byte, max int) string {
	var sb strings.Builder
	inTag, space, cut := false, false, false
	for _, c := range b {
		switch {
		case c == '<':
			inTag, space = true, true
		case c == '>' && inTag:
			inTag = false
		case inTag:
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			space = true
		default:
			if space && sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			space = false
			sb.WriteByte(c)
		}
		if sb.Len() > 4*max {
			cut = true
			break
		}
	}
	s := strings.ToValidUTF8(sb.String(), "\uFFFD")
	if cut {
		// Replacing invalid bytes can shrink the text below max, so the
		// word cut here must be dropped now, not left to trimAtWord.
		s = textcut.DropLastWord(s)
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = pageEntities.Replace(s)
	}
	return trimAtWord(strings.TrimSpace(s), max)
}

// firstTextLine returns the first non-blank line of a plain-text body,
// trimmed and cut to pageMessageMax bytes.
func firstTextLine(body []byte) string {
	head := pageHead(body)
	for len(head) > 0 {
		line := head
		if i := indexByteFrom(head, '\n', 0); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if s := strings.TrimSpace(strings.ToValidUTF8(string(textcut.AtWord(line, 4*pageMessageMax)), "\uFFFD")); s != "" {
			return trimAtWord(s, pageMessageMax)
		}
	}
	return ""
}
