package sanitize

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// HTML fragments: a body with tags but no document around them, such as
// PHP's errors with html_errors on,
//
//	<br />
//	<b>Fatal error</b>:  Uncaught Exception: boom in /var/www/x.php:12
//	Stack trace:
//	#0 {main}
//	  thrown in <b>/var/www/x.php</b> on line <b>12</b><br />
//
// a framework's <pre> of a trace, or a <form> echoed back
// (html_fragment_detect.go tells one). A fragment keeps all its text, line
// by line, so that the stack stage after it still sees the frames one a
// line; it loses every tag and every attribute value (an <input value="…">
// may hold a token), and the text of scripts, styles, templates and text
// areas.

// htmlFragmentToText returns the text of an HTML fragment: text and
// entities decoded, tags, attributes and comments dropped, a line break
// at every element but the inline ones (b, code, a, …), the text of hidden
// elements dropped. Like htmlToText's line, the text holds no '<' or '>'
// and no entity that decodes to one.
func htmlFragmentToText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	z := html.NewTokenizer(strings.NewReader(s))
	hidden, inTitle := 0, false // depth in elements whose text is dropped
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return neutralizeMarkup(b.String())
		case html.TextToken:
			switch {
			case hidden > 0:
			case inTitle:
				b.Write(rawText(z))
			default:
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			n := string(name)
			switch {
			case tt == html.SelfClosingTagToken:
			case htmlFragmentHidden(n) && tt == html.StartTagToken:
				hidden++
			case htmlFragmentHidden(n) && hidden > 0:
				hidden--
			case n == "title":
				inTitle = tt == html.StartTagToken
			}
			if !htmlInline(n) {
				b.WriteByte('\n')
			}
		}
	}
}

// htmlFragmentHidden reports whether the text of the element named name
// is not shown: scripts, styles, templates, text areas (whose text is a
// form's value), the head, and the elements whose text the tokenizer reads
// raw, tags and attributes included (noscript, plaintext, xmp).
func htmlFragmentHidden(name string) bool {
	switch name {
	case "script", "style", "template", "textarea", "iframe", "noembed", "noframes", "noscript",
		"plaintext", "xmp", "svg", "head", "select":
		return true
	}
	return false
}

// htmlInline reports whether the element named name flows in its line:
// the text around it is not broken.
func htmlInline(name string) bool {
	switch name {
	case "b", "i", "u", "s", "q", "a", "em", "strong", "code", "font", "small", "big", "tt",
		"kbd", "samp", "var", "abbr", "sup", "sub", "label", "input", "button", "img", "nobr",
		"mark", "cite", "time", "data", "wbr", "span":
		return true
	}
	return false
}

// rawText returns the text of the current token of z, an element's text
// that the tokenizer reads raw (a title), with what looks like a tag
// dropped and then its entities decoded: "&lt;b&gt;" is text, "<b>" is not.
func rawText(z *html.Tokenizer) []byte {
	if raw := z.Raw(); bytes.IndexByte(raw, '<') < 0 {
		return z.Text() // Text decodes the entities of a title
	}
	return []byte(html.UnescapeString(dropTagLike(string(z.Raw()))))
}

// dropTagLike removes what looks like a tag ("<input value=…>") from the
// text of an element the tokenizer reads raw, such as a title, so that no
// attribute value written there reaches the output either.
func dropTagLike(t string) string {
	if !strings.Contains(t, "<") {
		return t
	}
	var b strings.Builder
	for {
		k := strings.IndexByte(t, '<')
		if k < 0 || k+1 >= len(t) || !(isAlnumByte(t[k+1]) || t[k+1] == '/' || t[k+1] == '!' || t[k+1] == '?') {
			if k < 0 || k+1 >= len(t) {
				b.WriteString(t)
				return b.String()
			}
			b.WriteString(t[:k+1])
			t = t[k+1:]
			continue
		}
		b.WriteString(t[:k])
		e := strings.IndexByte(t[k:], '>')
		if e < 0 {
			return b.String() // an unclosed tag runs to the end
		}
		t = t[k+e+1:]
	}
}
