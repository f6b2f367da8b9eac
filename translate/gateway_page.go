package translate

import (
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/textcut"
)

// Helpers shared by the gateway translators: reading a proxy's error page
// (its title, a heading, a plain-text line) with work bounded by the body.

const (
	// gwScanLimit bounds how much of a body the gateway helpers search:
	// every proxy's signature sits near the start of its page.
	gwScanLimit = 16 << 10
	// gwMessageMax bounds a message read from a page or a text line.
	gwMessageMax = 200
)

// gwHead returns the start of body that the gateway helpers search, ending
// at a word boundary (see cut.go).
func gwHead(body []byte) []byte {
	return textcut.AtWord(body, gwScanLimit)
}

// gwTagNeedles returns the opening ("<title") and closing ("</title") of
// tag, without building them for the tags the translators read.
func gwTagNeedles(tag string) (open, close string) {
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

// gwElement returns the cleaned text of the first <tag> element in the
// start of body, or "". Markup inside the element is dropped.
func gwElement(body []byte, tag string) string {
	head := gwHead(body)
	open, close := gwTagNeedles(tag)
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
			return gwCleanText(rest[:end], gwMessageMax)
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

// gwEntities are the character references proxies' pages use.
var gwEntities = strings.NewReplacer(
	"&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'",
	"&#x27;", "'", "&apos;", "'", "&nbsp;", " ", "&#160;", " ",
)

// gwCleanText turns a fragment of HTML into one line of text: tags are
// dropped, the common character references decoded, white space collapsed,
// invalid UTF-8 replaced, and the result cut to at most max bytes.
func gwCleanText(b []byte, max int) string {
	if gwPlainText(b, max) {
		return gwCut(string(b), max) // what the markup walk below would give, built at once
	}
	return gwMarkupText(b, max)
}

// gwPlainText reports whether b is printable ASCII without markup or
// references, its words separated by single spaces, and short enough for
// gwMarkupText to read whole: text that gwMarkupText returns as it is,
// cut to max.
func gwPlainText(b []byte, max int) bool {
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

// gwMarkupText is gwCleanText for any fragment: it walks the bytes,
// dropping tags and collapsing white space.
func gwMarkupText(b []byte, max int) string {
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
		// word cut here must be dropped now, not left to gwCut.
		s = textcut.DropLastWord(s)
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = gwEntities.Replace(s)
	}
	return gwCut(strings.TrimSpace(s), max)
}

// gwFirstLine returns the first non-blank line of a plain-text body,
// trimmed and cut to gwMessageMax bytes.
func gwFirstLine(body []byte) string {
	head := gwHead(body)
	for len(head) > 0 {
		line := head
		if i := indexByteFrom(head, '\n', 0); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if s := strings.TrimSpace(strings.ToValidUTF8(string(textcut.AtWord(line, 4*gwMessageMax)), "\uFFFD")); s != "" {
			return gwCut(s, gwMessageMax)
		}
	}
	return ""
}

// gwIsPlainText reports whether r's body is plain text of a proxy: a
// text/plain or absent media type, and a body that is not JSON, XML or HTML.
func gwIsPlainText(r *Raw) bool {
	ct := r.ContentType()
	if ct != "" && ct != "text/plain" {
		return false
	}
	b := trimLeftSpace(r.Body)
	return len(b) > 0 && b[0] != '{' && b[0] != '[' && b[0] != '<'
}

// gwIsPage reports whether r's body looks like an HTML page: an HTML media
// type or a body that starts with markup.
func gwIsPage(r *Raw) bool {
	if r.IsHTML() {
		return true
	}
	ct := r.ContentType()
	b := trimLeftSpace(r.Body)
	return (ct == "" || ct == "text/plain") && len(b) > 0 && b[0] == '<' && !r.IsXML()
}

// gwStatusTitle reports whether title starts with a three-digit status, as
// "502 Bad Gateway" does: the title of a proxy's own error page.
func gwStatusTitle(title string) bool {
	return len(title) >= 3 && isDigitByte(title[0]) && isDigitByte(title[1]) && isDigitByte(title[2]) &&
		(len(title) == 3 || title[3] == ' ')
}

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// gwServer returns the Server header in lower case.
func gwServer(h http.Header) string {
	return strings.ToLower(strings.TrimSpace(canonheader.Value(h, "Server")))
}
