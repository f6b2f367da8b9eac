package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Telling an HTML fragment. Markup counts as HTML by
//
//   - a lower-case start tag of htmlFragmentTags: "<br />", "<pre>";
//   - an end tag of an HTML element, in any case: "</b>", "</P>";
//   - a start tag of an HTML element with an attribute: "<INPUT VALUE=…",
//     whose value must not reach the output;
//   - a closed comment;
//   - an end tag or attributes of a custom element: "<x-card token=…".
//
// Markup of any other element, an end tag or attributes of a name HTML
// does not have ("</password>", "<add key=… value=…/>"), makes the text
// XML: it stays as it is, because its element names are the keys by which
// the secret stage finds the values ("<password>…</password>"). A start
// tag without attributes of such a name is neither: "List<String>" is a
// type, Ruby's `<main>' a frame.

// htmlFragmentTags are the lower-case tag names whose start tag alone
// marks a fragment. HTML elements whose names are also words of traces
// and types are left out (main, object, summary, source, data, time,
// input), and so are the single letters (b, i, p, a): "Box<B>" is a type,
// "</b>" is markup.
var htmlFragmentTags = [...]string{
	"pre", "code", "br", "hr", "div", "span", "form", "table", "tbody", "thead", "tr", "td", "th",
	"ul", "ol", "li", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em",
	"font", "center", "blockquote", "small", "big", "tt", "kbd", "samp", "img", "button",
	"textarea", "select", "fieldset", "legend", "label", "section", "article", "header",
	"footer", "nav", "script", "style", "noscript", "iframe", "sup", "sub", "abbr", "meta",
	"link", "plaintext", "xmp",
}

// looksLikeHTMLFragment reports whether s holds HTML markup and no XML
// markup, as the comment above tells them. An XML document ("<?xml") is
// not a fragment. Text without '<' costs one IndexByte.
func looksLikeHTMLFragment(s string) bool {
	if asciifold.HasPrefix(skipSpaceRun(s), "<?xml") {
		return false
	}
	isHTML := false
	closeAt := -2 // where the last "-->" starts, once searched
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			break
		}
		i += k + 1
		t := s[i:]
		if strings.HasPrefix(t, "!--") {
			if closeAt == -2 {
				closeAt = strings.LastIndex(s, "-->")
			}
			isHTML = isHTML || closeAt >= i+3 // an open comment would hide the rest
			continue
		}
		end := strings.HasPrefix(t, "/")
		if end {
			t = t[1:]
		}
		n := tagNameLen(t)
		if n == 0 || !htmlNameEnds(t[n:]) {
			continue
		}
		name := t[:n]
		marked := end || tagHasAttr(t[n:])
		switch {
		case isHTMLElement(name):
			isHTML = isHTML || marked || htmlTagIn(name, htmlFragmentTags[:])
		case !marked:
		case customElement(name):
			isHTML = true
		default:
			return false // XML
		}
	}
	return isHTML
}

// tagNameLen returns the length of the tag name t starts with: a letter,
// then letters, digits and the '-', '_', '.' and ':' of XML names.
func tagNameLen(t string) int {
	if t == "" || !(t[0]|0x20 >= 'a' && t[0]|0x20 <= 'z') {
		return 0
	}
	n := 1
	for n < len(t) && (isAlnumByte(t[n]) || strings.IndexByte("-_.:", t[n]) >= 0) {
		n++
	}
	return n
}

// htmlTagIn reports whether name is one of the lower-case names, as written.
func htmlTagIn(name string, names []string) bool {
	for _, n := range names {
		if name == n {
			return true
		}
	}
	return false
}

// customElement reports whether name is an HTML custom element: letters
// and digits with a hyphen ("x-card"), nothing of XML's '_', '.' or ':'.
func customElement(name string) bool {
	return strings.IndexByte(name, '-') > 0 && !strings.ContainsAny(name, "_.:")
}

// tagHasAttr reports whether rest, what follows a tag name, holds an
// attribute with a value: white space, attribute names and '=' right after
// one. Type parameters ("Add<Rhs=Self>", "Iterator<Item = u8>", "Map<K,
// V>") have none.
func tagHasAttr(rest string) bool {
	r := skipSpaceRun(rest)
	if len(r) == len(rest) {
		return false // no white space after the name
	}
	for range 8 { // attribute names without a value may come first: "<option selected value=…"
		a := 0
		for a < len(r) && (isWordByte(r[a]) || r[a] == '-' || r[a] == ':' || a > 0 && r[a] == '.') {
			a++
		}
		if a == 0 || a == len(r) {
			return false
		}
		if r[a] == '=' {
			return true
		}
		next := skipSpaceRun(r[a:])
		if len(next) == len(r)-a {
			return false
		}
		r = next
	}
	return false
}

// isHTMLElement reports whether name, in any case, is an element of HTML
// (obsolete ones included).
func isHTMLElement(name string) bool {
	if len(name) > 10 {
		return false // "blockquote", "figcaption" and "plaintext" are the longest
	}
	var buf [10]byte
	for i := 0; i < len(name); i++ {
		buf[i] = asciifold.Lower(name[i])
	}
	switch string(buf[:len(name)]) {
	case "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio",
		"b", "base", "basefont", "bdi", "bdo", "big", "blink", "blockquote", "body", "br", "button",
		"canvas", "caption", "center", "cite", "code", "col", "colgroup", "data", "datalist",
		"dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em", "embed",
		"fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "frameset",
		"h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html",
		"i", "iframe", "img", "input", "ins", "kbd", "label", "legend", "li", "link", "listing",
		"main", "map", "mark", "marquee", "math", "menu", "meta", "meter", "nav", "nobr",
		"noembed", "noframes", "noscript", "object", "ol", "optgroup", "option", "output",
		"p", "param", "picture", "plaintext", "pre", "progress", "q", "rp", "rt", "ruby",
		"s", "samp", "script", "search", "section", "select", "slot", "small", "source", "span",
		"strike", "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td",
		"template", "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt",
		"u", "ul", "var", "video", "wbr", "xmp":
		return true
	}
	return false
}
