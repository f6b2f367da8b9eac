package sanitize

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Exception headlines of debug pages. A framework's error page in
// development names the exception where the title does not:
//
//	Django    <title>ValueError at /orders/42/</title> … <pre class="exception_value">bad input</pre>
//	Rails     <h1>ActiveRecord::RecordNotFound in OrdersController#show</h1> <div class="exception-message">…
//	Symfony   <h1 class="break-long-words exception-message">bad input</h1>
//	Tomcat    <h1>HTTP Status 500 – Internal Server Error</h1> … <pre>jakarta.servlet.ServletException: …
//	Express   <title>Error</title> … <pre>Error: boom<br> &nbsp; &nbsp;at …</pre>
//	beego     <title>beego application error</title> … <h2>orders:runtime error: index out of range</h2>
//	ASP.NET   <pre>[InvalidOperationException: boom]<br>   Acme.Home.Index() +87 …
//
// The page's line keeps its title and adds the headline: the text of an
// exception-value element (with the exception's name from the h1 when it
// lacks one), else the first headline line of the <pre> and <code> text,
// else of the h1 and h2 text, else (a page without a title) of the visible
// text. A headline line is "Name: message" whose name holds error,
// exception, panic, fatal, fault, failure or abort ("ValueError: bad
// input", "panic: nil map", "thread 'main' panicked: boom"). Frames never
// count: every candidate text is stripped of its traces first.

// maxHTMLHeadlineText bounds the text gathered from pre and code elements,
// where a Python traceback puts its headline last.
const maxHTMLHeadlineText = 16 << 10

// maxHeadlineName bounds the name part of a headline line.
const maxHeadlineName = 80

// headlineWords are the words, in lower case, of which the name of a
// headline holds one.
var headlineWords = [...]string{"error", "exception", "panic", "fatal", "fault", "failure", "abort"}

// excValueClasses are the class names of the elements that hold an
// exception's message on debug pages.
var excValueClasses = [...]string{"exception_value", "exception-value", "exception-message", "exception_message"}

// pageHeadline returns the exception headline of a page, or "". Without a
// title the visible text is searched too.
func pageHeadline(p *htmlParts, titled bool) string {
	if h := excHeadline(p); h != "" {
		return h
	}
	if h := firstHeadline(p.pre); h != "" {
		return h
	}
	if h := firstHeadline(p.heads); h != "" {
		return h
	}
	if !titled {
		return firstHeadline(p.visible)
	}
	return ""
}

// excHeadline returns the headline of the page's exception-value element:
// its first line, prefixed with the exception's name when the first h1
// (else the title) starts with one followed by " at " or " in " (Django's
// "ValueError at /orders/42/", Rails' "ActiveRecord::RecordNotFound in
// OrdersController#show") and the line does not name one itself.
func excHeadline(p *htmlParts) string {
	v := firstLine(p.exc)
	if v == "" || isHeadline(v) {
		return v
	}
	for _, src := range [...][]byte{p.h1, p.title} {
		if name := excName(collapseSpace(string(src))); name != "" {
			return name + ": " + v
		}
	}
	return v
}

// excName returns the exception name t starts with, followed by " at " or
// " in ": a word of letters, digits, '_', '.', ':', '\' and '$'.
func excName(t string) string {
	n := 0
	for n < len(t) && (isWordByte(t[n]) || strings.IndexByte(`.:\$`, t[n]) >= 0) {
		n++
	}
	if n == 0 || n > maxHeadlineName || !(strings.HasPrefix(t[n:], " at ") || strings.HasPrefix(t[n:], " in ")) {
		return ""
	}
	return t[:n]
}

// firstLine returns the first non-blank line of b, collapsed.
func firstLine(b []byte) string {
	for line := range strings.SplitSeq(string(b), "\n") {
		if l := collapseSpace(line); l != "" {
			return l
		}
	}
	return ""
}

// firstHeadline returns the first headline line of b once its traces are
// stripped, with the next line joined on when the headline ends with ':'
// (Rust's "thread 'main' panicked:" and its message), or "".
func firstHeadline(b []byte) string {
	if bytes.IndexByte(b, ':') < 0 {
		return "" // every headline holds a colon
	}
	var discard Report // the page as a whole is counted as KindHTML
	t := stripStackTraces(string(b), &discard)
	for len(t) > 0 {
		line, rest, _ := strings.Cut(t, "\n")
		t = rest
		l := collapseSpace(line)
		if !isHeadline(l) {
			continue
		}
		if strings.HasSuffix(l, ":") {
			if next := firstLine([]byte(t)); next != "" && !strings.HasPrefix(next, stackPlaceholder) {
				l += " " + next
			}
		}
		return l
	}
	return ""
}

// isHeadline reports whether the collapsed line l reads as an exception
// headline: a name of at most maxHeadlineName bytes that holds one of
// headlineWords, then ": " and a message, or ':' ending the line.
func isHeadline(l string) bool {
	name, _, ok := strings.Cut(l, ": ")
	if !ok {
		name, ok = strings.CutSuffix(l, ":")
	}
	if !ok || name == "" || len(name) > maxHeadlineName || strings.HasPrefix(name, stackPlaceholder) {
		return false
	}
	lower := strings.ToLower(name)
	for _, w := range headlineWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// combineHeadline joins a page's line t and its headline h, once: the
// longer when one holds the other, h alone when t starts with h's
// exception name (Django's title "ValueError at /x/" and "ValueError: bad
// input"), else "t — h".
func combineHeadline(t, h string) string {
	switch {
	case h == "":
		return t
	case t == "", strings.Contains(h, t):
		return h
	case strings.Contains(t, h):
		return t
	}
	if name, _, ok := strings.Cut(h, ":"); ok && excName(t) == name {
		return h
	}
	return t + " — " + h
}

// isExcValueClass reports whether the class attribute value v names an
// exception-value element.
func isExcValueClass(v string) bool {
	for f := range strings.FieldsSeq(v) {
		for _, c := range excValueClasses {
			if f == c {
				return true
			}
		}
	}
	return false
}

// mayHoldHeadline reports whether rest, the part of a page not yet read,
// may hold a headline: a pre, code, h1 or h2 element, or an exception-value
// class. scanHTML stops early when it cannot, so an nginx page padded with
// comments costs no more than before.
func mayHoldHeadline(rest string) bool {
	for i := 0; ; {
		k := strings.IndexByte(rest[i:], '<')
		if k < 0 {
			break
		}
		i += k + 1
		if i == len(rest) {
			break
		}
		switch rest[i] | 0x20 {
		case 'p', 'c', 'h':
			for _, name := range [...]string{"pre", "code", "h1", "h2"} {
				if asciifold.HasPrefix(rest[i:], name) && htmlNameEnds(rest[i+len(name):]) {
					return true
				}
			}
		}
	}
	return strings.Contains(rest, "xception") // of a class name; 'x' is rarer than 'e'
}

// headlineScan follows, for scanHTML, the elements whose text a headline
// may come from.
type headlineScan struct {
	pre, head int    // depth in pre and code, and in h1 and h2 elements
	exc       string // the tag name of the exception-value element being read
	excDepth  int    // depth in elements of that name, 0 outside
	excDone   bool   // the exception-value element was read
	more      uint8  // whether the unread page may hold a headline: 0 not known yet, 1 yes, 2 no
}

// text gathers text into the parts of the elements it stands in.
func (sc *headlineScan) text(p *htmlParts, text []byte) {
	if sc.pre > 0 {
		p.pre = p.appendBounded(partPre, p.pre, text, maxHTMLHeadlineText)
	}
	if sc.head > 0 {
		p.heads = p.appendBounded(partHeads, p.heads, text, maxHTMLVisible)
	}
	if sc.excDepth > 0 {
		p.exc = p.appendBounded(partExc, p.exc, text, maxHTMLVisible)
	}
}

// tag follows a tag named name of token type tt; with attributes, it
// reads the class of a start tag to find an exception-value element.
func (sc *headlineScan) tag(p *htmlParts, z *html.Tokenizer, name string, tt html.TokenType, hasAttr bool) {
	open, end := tt == html.StartTagToken, tt == html.EndTagToken
	switch name {
	case "pre", "code":
		sc.pre = depth(sc.pre, open, end)
	case "h1", "h2":
		sc.head = depth(sc.head, open, end)
		if p.heads == nil {
			p.heads = make([]byte, 0, 256) // one allocation for the usual h1
		}
		p.heads = p.appendBounded(partHeads, p.heads, []byte{'\n'}, maxHTMLVisible)
	}
	switch {
	case sc.excDepth > 0 && name == sc.exc:
		sc.excDepth = depth(sc.excDepth, open, end)
		sc.excDone = sc.excDepth == 0
	case open && hasAttr && !sc.excDone && sc.excDepth == 0 && excValueTag(z):
		sc.exc, sc.excDepth = strings.Clone(name), 1 // a copy: name stays on the caller's stack
	}
	if htmlBreaks(name) || name == "code" {
		nl := []byte{'\n'}
		if sc.pre > 0 || name == "pre" || name == "code" {
			p.pre = p.appendBounded(partPre, p.pre, nl, maxHTMLHeadlineText)
		}
		if sc.excDepth > 0 {
			p.exc = p.appendBounded(partExc, p.exc, nl, maxHTMLVisible)
		}
	}
}

// depth returns the depth d after a start tag (open) or an end tag (end).
func depth(d int, open, end bool) int {
	switch {
	case open:
		return d + 1
	case end && d > 0:
		return d - 1
	}
	return d
}

// excValueTag reports whether the current start tag of z has the class of
// an exception-value element. It reads the tag's attributes.
func excValueTag(z *html.Tokenizer) bool {
	for {
		key, val, more := z.TagAttr()
		if string(key) == "class" && isExcValueClass(string(val)) {
			return true
		}
		if !more {
			return false
		}
	}
}

// done reports whether scanHTML, having the title and the first h1, may
// stop: the exception-value element was read, or no element is open that
// gathers headline text and rest, the unread page, cannot hold a
// headline nor a comment with a link (html_comment.go). rest is searched
// once.
func (sc *headlineScan) done(rest string) bool {
	if sc.excDone {
		return true
	}
	if sc.pre > 0 || sc.head > 0 || sc.excDepth > 0 {
		return false
	}
	if sc.more == 0 {
		sc.more = 2
		if mayHoldHeadline(rest) || mayHoldCommentLink(rest) {
			sc.more = 1
		}
	}
	return sc.more == 2
}
