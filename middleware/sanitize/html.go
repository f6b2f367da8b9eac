package sanitize

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/textcut"
)

// htmlPrefix starts the line an HTML document is reduced to.
const htmlPrefix = "upstream HTML error page"

const (
	// maxHTMLText bounds the text kept from a document, in bytes. Twice
	// as much of the title and h1 is read, so that the cut can fall
	// before a word (textcut.AtWord).
	maxHTMLText = 512
	// maxHTMLVisible bounds the visible text gathered when a document has
	// neither title nor h1, before stack traces and signatures are dropped.
	maxHTMLVisible = 4 << 10
	// maxHTMLPreamble bounds how far looksLikeHTML reads through leading
	// comments and an XML declaration.
	maxHTMLPreamble = 1 << 10
)

// htmlParts is what htmlToText gathers from a document.
type htmlParts struct {
	title, h1, visible []byte
	pre                []byte // the text of pre and code elements, each on lines of its own
	heads              []byte // the text of h1 and h2 elements, one a line
	exc                []byte // the text of the first exception-value element
	linkLabel, link    string // the first public URL of a comment (html_comment.go)
	// full holds a bit for each part above that was cut at its bound
	// (appendBounded): it takes no more text.
	full partBits
}

// partBits names the bounded parts of htmlParts, one bit each.
type partBits uint8

const (
	partTitle partBits = 1 << iota
	partH1
	partVisible
	partPre
	partHeads
	partExc
)

// htmlToText converts HTML to text. A fragment (looksLikeHTMLFragment, not
// a document) keeps its text line by line (htmlFragmentToText). A document
// is reduced to one line: "upstream HTML error page: " and the document's
// title, else its first h1, else its visible text, then the exception
// headline the page holds (html_headline.go) and a public link of its
// comments (html_comment.go), with entities decoded,
// server signatures dropped and at most maxHTMLText bytes kept. The line
// holds no '<' or '>' and no entity that decodes to one, so it never reads
// as markup again. Attribute values are never part of either.
func htmlToText(s string) string {
	if !looksLikeHTMLDocument(s) && looksLikeHTMLFragment(s) {
		return htmlFragmentToText(s)
	}
	p := scanHTML(s)
	t := titleText(collapseSpace(string(p.title)))
	h := collapseSpace(string(p.h1))
	titled := len(p.title) > 0
	switch {
	case t != "":
		if statusCode(t) == "" {
			c := statusCode(h)
			if c == "" {
				c = statusPhrase(string(p.visible))
			}
			if c != "" {
				t = c + " " + t
			}
		}
	case h != "":
		t = h
	default:
		t = visibleText(string(p.visible))
	}
	if titled || h != "" {
		t = combineHeadline(t, pageHeadline(&p, titled))
	}
	t = textcut.AtWord(neutralizeMarkup(statusColon(t)), maxHTMLText)
	t = withCommentLink(t, p.linkLabel, p.link)
	if t == "" {
		return htmlPrefix
	}
	return htmlPrefix + ": " + t
}

// scanHTML tokenizes s and gathers its title, its first h1, its visible
// text and the texts an exception headline may come from (htmlParts), each
// bounded. Text in the head (but the title), in scripts, styles, templates
// and addresses is not visible. Attributes are read only for an element's
// class, to find an exception-value element.
func scanHTML(s string) htmlParts {
	var p htmlParts
	z := html.NewTokenizer(strings.NewReader(s))
	var inHead, inTitle, inRaw bool
	hidden, h1 := 0, 0 // depth in hidden elements; 0 before, 1 in, 2 after the first h1
	var sc headlineScan
	pos := 0 // bytes of s read
	for {
		tt := z.Next()
		pos += len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return p
		case html.CommentToken:
			if p.link == "" {
				p.linkLabel, p.link = commentLink(string(z.Text()))
			}
		case html.TextToken:
			if inTitle {
				p.title = p.appendBounded(partTitle, p.title, rawText(z), 2*maxHTMLText)
				continue
			}
			text := z.Text()
			switch {
			case inRaw, inHead, hidden > 0:
			default:
				if h1 == 1 {
					p.h1 = p.appendBounded(partH1, p.h1, text, 2*maxHTMLText)
				}
				p.visible = p.appendBounded(partVisible, p.visible, text, maxHTMLVisible)
				sc.text(&p, text)
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			start := tt != html.EndTagToken
			open := tt == html.StartTagToken
			sc.tag(&p, z, string(name), tt, hasAttr)
			switch string(name) {
			case "head":
				inHead = open
			case "body":
				inHead = false
			case "title":
				inTitle = open && len(p.title) == 0
			case "script", "style", "noscript", "iframe", "noembed", "noframes", "textarea", "xmp", "plaintext":
				inRaw = open
			case "template", "address", "footer", "svg", "select":
				if open {
					hidden++
				} else if !start && hidden > 0 {
					hidden--
				}
			case "h1":
				if open && h1 == 0 {
					h1 = 1
				} else if !start && h1 == 1 {
					h1 = 2
				}
			}
			if htmlBreaks(string(name)) {
				p.visible = p.appendBounded(partVisible, p.visible, []byte{'\n'}, maxHTMLVisible)
			}
			if len(p.title) > 0 && !inTitle && h1 == 2 && sc.done(s[min(pos, len(s)):]) {
				return p
			}
		}
	}
}

// htmlBreaks reports whether the element named name starts a new line of
// visible text.
func htmlBreaks(name string) bool {
	switch name {
	case "p", "div", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "td", "th",
		"center", "pre", "table", "ul", "ol", "dl", "dt", "dd", "section", "article", "main",
		"header", "nav", "blockquote", "body", "form", "span":
		return true
	}
	return false
}

// appendBounded appends text to b, the part of p that part names, as long
// as b stays within limit bytes. Where the bound cuts, it cuts as every cut
// before the secret rules does (textcut.AtWord): the word the bound runs
// through goes whole, and with it the groups of a number that runs across
// the cut, so that no fragment of a token that no rule recognizes stays.
// The part then takes no more text: what a later text token would add
// does not follow what was cut.
func (p *htmlParts) appendBounded(part partBits, b, text []byte, limit int) []byte {
	if p.full&part != 0 {
		return b
	}
	room := limit - len(b)
	if len(text) <= room {
		return append(b, text...)
	}
	p.full |= part
	// One byte past the bound tells AtWord whether the bound falls in a
	// word (which may have begun in b).
	return textcut.AtWord(append(b, text[:room+1]...), limit)
}

// titleText returns the part of a title that names the error: Cloudflare's
// "example.com | 522: Connection timed out" loses the host (which may be
// an internal name), IIS's "IIS 10.0 Detailed Error - 404.0 - Not Found"
// loses the server's name, Werkzeug's "KeyError: 'sku' // Werkzeug
// Debugger" the debugger's.
func titleText(t string) string {
	t = strings.TrimSuffix(t, " // Werkzeug Debugger") // the debugger's name, after the exception's headline
	if strings.HasPrefix(t, "IIS ") {
		if _, rest, ok := strings.Cut(t, "Detailed Error - "); ok {
			t = rest
		}
	}
	if !strings.Contains(t, " | ") {
		return t
	}
	segs := strings.Split(t, " | ")
	for _, seg := range segs {
		if statusCode(seg) != "" {
			return seg
		}
	}
	for _, seg := range segs {
		if !hasHostName(seg) {
			return seg
		}
	}
	return ""
}

// hasHostName reports whether t holds a dotted name such as example.com.
func hasHostName(t string) bool {
	for i := 1; i+1 < len(t); i++ {
		if t[i] == '.' && isAlnumByte(t[i-1]) && isAlnumByte(t[i+1]) {
			return true
		}
	}
	return false
}

// statusCode returns the first HTTP status (100 to 599) or Cloudflare
// error code (1000 to 1999) standing alone in t, or "".
func statusCode(t string) string {
	for i := 0; i < len(t); {
		if t[i] < '0' || t[i] > '9' || i > 0 && isAlnumByte(t[i-1]) {
			i++
			continue
		}
		n := digitsLen(t[i:])
		if i+n == len(t) || !isAlnumByte(t[i+n]) {
			switch {
			case n == 3 && t[i] >= '1' && t[i] <= '5', n == 4 && t[i] == '1':
				return t[i : i+n]
			}
		}
		i += n
	}
	return ""
}

// statusPhrase returns the status code of a phrase such as "HTTP Error
// 503." or "Error code 522" in visible text, or "".
func statusPhrase(v string) string {
	for _, p := range [...]string{"HTTP Error ", "Error code "} {
		if k := strings.Index(v, p); k >= 0 {
			rest := v[k+len(p):]
			n := digitsLen(rest)
			if c := statusCode(rest[:n]); c != "" && (n == len(rest) || !isAlnumByte(rest[n])) {
				return c
			}
		}
	}
	return ""
}

// statusColon turns a leading "522: Connection timed out" into "522
// Connection timed out".
func statusColon(t string) string {
	n := digitsLen(t)
	if (n == 3 || n == 4) && strings.HasPrefix(t[n:], ": ") {
		return t[:n] + t[n+1:]
	}
	return t
}

// visibleText returns the visible text of a document without a title or
// h1: stack traces stripped, server-signature lines dropped, one line.
func visibleText(v string) string {
	var discard Report // the document as a whole is counted as KindHTML
	v = stripStackTraces(v, &discard)
	var b strings.Builder
	for line := range strings.SplitSeq(v, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || serverSignature(line) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
		if b.Len() >= maxHTMLText {
			break
		}
	}
	return collapseSpace(b.String())
}

// serverSignature reports whether line is a web server's signature:
// "nginx/1.25.3", "Apache/2.4.57 (Debian) Server at host Port 80",
// "cloudflare", "Microsoft-IIS/10.0", "Powered by …".
func serverSignature(line string) bool {
	for _, name := range [...]string{"nginx", "openresty", "apache", "microsoft-iis",
		"microsoft-httpapi", "cloudflare", "awselb", "envoy", "caddy", "litespeed", "tengine"} {
		if asciifold.HasPrefix(line, name) && (len(line) == len(name) || line[len(name)] == '/') {
			return true
		}
	}
	for _, phrase := range [...]string{"powered by ", "generated by ", "server at ",
		"proudly served by ", "varnish cache server"} {
		if asciifold.HasPrefix(line, phrase) {
			return true
		}
	}
	return false
}

// neutralizeMarkup replaces '<' and '>' with look-alike angle quotes and
// the '&' of anything that decodes to markup ("&lt;", "&#60;") with a
// full-width ampersand, so the line cannot form a tag even if a consumer
// decodes it as HTML.
func neutralizeMarkup(t string) string {
	if !strings.ContainsAny(t, "<>&") {
		return t
	}
	var b strings.Builder
	b.Grow(len(t) + 8)
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '<':
			b.WriteString("‹")
		case c == '>':
			b.WriteString("›")
		case c == '&' && (asciifold.HasPrefix(t[i:], "&lt") || asciifold.HasPrefix(t[i:], "&gt") ||
			strings.HasPrefix(t[i:], "&#")):
			b.WriteString("＆")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
