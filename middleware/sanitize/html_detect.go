package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Detection of HTML. Clean asks looksLikeHTML, then htmlToText tells a
// document (looksLikeHTMLDocument, reduced to one line) from a fragment
// of markup in other text (looksLikeHTMLFragment, html_fragment.go).

// htmlDocStarts are the tags a document may start with, after '<'.
var htmlDocStarts = [...]string{"html", "head", "body", "title", "h1"}

// looksLikeHTML reports whether s is HTML: a document
// (looksLikeHTMLDocument) or a fragment of markup in other text
// (looksLikeHTMLFragment). htmlToText tells the two apart again.
func looksLikeHTML(s string) bool {
	return looksLikeHTMLDocument(s) || looksLikeHTMLFragment(s)
}

// looksLikeHTMLDocument reports whether s is an HTML document: after white
// space, control characters, a BOM, comments and an XML declaration it
// starts with an HTML doctype or an html, head, body, title or h1 tag. It
// reads only the start of s. White space counts as collapseSpace sees it,
// so that a collapsed text is HTML exactly when the text was.
func looksLikeHTMLDocument(s string) bool {
	for range 4 {
		s = skipSpaceRun(s)
		if len(s) < 3 || s[0] != '<' {
			return false
		}
		var end string
		switch {
		case strings.HasPrefix(s, "<!--"):
			end = "-->"
		case asciifold.HasPrefix(s, "<?xml"):
			end = "?>"
		default:
			return htmlStartTag(s[1:])
		}
		k := strings.Index(s[:min(len(s), maxHTMLPreamble)], end)
		if k < 0 {
			return false
		}
		s = s[k+len(end):]
	}
	return false
}

// htmlStartTag reports whether s, what follows a '<', is an HTML doctype
// or one of htmlDocStarts followed by the end of the tag name.
func htmlStartTag(s string) bool {
	if asciifold.HasPrefix(s, "!doctype") {
		rest := skipSpaceRun(s[len("!doctype"):])
		return len(rest) < len(s)-len("!doctype") && asciifold.HasPrefix(rest, "html") && htmlNameEnds(rest[len("html"):])
	}
	for _, name := range htmlDocStarts {
		if !asciifold.HasPrefix(s, name) {
			continue
		}
		if htmlNameEnds(s[len(name):]) {
			return true
		}
	}
	return false
}

// htmlNameEnds reports whether rest, what follows a tag name, ends the
// name: nothing, '>', '/', or white space or a control character, which
// collapseSpace turns into a space or the end of the text.
func htmlNameEnds(rest string) bool {
	return rest == "" || rest[0] == '>' || rest[0] == '/' || len(skipSpaceRun(rest)) < len(rest)
}
