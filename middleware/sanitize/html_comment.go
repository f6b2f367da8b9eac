package sanitize

import "strings"

// Links in HTML comments. An error page of a proxy or a CDN sometimes
// puts its only pointer to help in a comment ("<!-- see
// https://status.example.com for incidents -->"), which the reduction to
// one line drops with every other comment. The line keeps the first such
// URL when it would otherwise lose it, as "(status: URL)" when the comment
// speaks of status, incidents, outages or maintenance, else as "(see:
// URL)". Only a comment that points the reader somewhere counts (it holds
// one of commentPointers), so a conditional comment loading a script, a
// build stamp or a tag manager's snippet adds nothing. Only a public host
// counts: an IP address, a single-label name or a name under one of
// builtinSuffixes would be redacted as internal. The URL goes through the
// secret and host stages with the rest of the line.

// maxCommentURL bounds the URL kept from a comment, in bytes; a longer
// one is not kept.
const maxCommentURL = 200

// commentPointers are the words, in lower case, of which a comment whose
// URL is kept holds one.
var commentPointers = [...]string{"status", "incident", "outage", "maintenance", "support", "help",
	"contact", "see ", "visit", "check", "more information", "details"}

// statusWords are the words, in lower case, that make a kept URL a status
// page's.
var statusWords = [...]string{"status", "incident", "outage", "maintenance"}

// commentLink returns the first public http(s) URL of the comment text c
// that points the reader somewhere, labelled "status" or "see", or "", "".
func commentLink(c string) (label, url string) {
	if !strings.Contains(c, "://") {
		return "", ""
	}
	lower := strings.ToLower(c)
	if !holdsAny(lower, commentPointers[:]) {
		return "", ""
	}
	for i := 0; i < len(c); {
		k := strings.Index(lower[i:], "http")
		if k < 0 {
			return "", ""
		}
		i += k
		u := c[i:urlEnd(c, i)]
		i += max(len(u), 1)
		if len(u) > maxCommentURL || !(strings.HasPrefix(strings.ToLower(u), "http://") ||
			strings.HasPrefix(strings.ToLower(u), "https://")) || !publicURLHost(u) {
			continue
		}
		if holdsAny(lower, statusWords[:]) {
			return "status", u
		}
		return "see", u
	}
	return "", ""
}

// holdsAny reports whether s holds one of words.
func holdsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// urlEnd returns the end of the URL that starts at s[i]: the first byte
// that no URL holds unescaped, with the punctuation that ends a sentence
// left out.
func urlEnd(s string, i int) int {
	e := i
	for e < len(s) && s[e] > ' ' && s[e] < 0x7f && strings.IndexByte("\"'<>`{}|\\^", s[e]) < 0 {
		e++
	}
	for e > i && strings.IndexByte(".,;:!?)", s[e-1]) >= 0 {
		e--
	}
	return e
}

// publicURLHost reports whether the URL u names a public host: a dotted
// name whose last label is letters, not under one of builtinSuffixes.
func publicURLHost(u string) bool {
	_, rest, _ := strings.Cut(u, "://")
	host := rest
	if k := strings.IndexAny(host, "/?#"); k >= 0 {
		host = host[:k]
	}
	if k := strings.LastIndexByte(host, '@'); k >= 0 {
		host = host[k+1:]
	}
	if k := strings.IndexByte(host, ':'); k >= 0 {
		host = host[:k]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	dot := strings.LastIndexByte(host, '.')
	if dot <= 0 || len(host)-dot-1 < 2 {
		return false
	}
	for k := dot + 1; k < len(host); k++ {
		if host[k] < 'a' || host[k] > 'z' {
			return false // an IP address, or no TLD
		}
	}
	for k := 0; k < len(host); k++ {
		if !isHostByte(host[k]) && host[k] != '.' {
			return false
		}
	}
	for _, sfx := range builtinSuffixes {
		if host == sfx || strings.HasSuffix(host, "."+sfx) {
			return false
		}
	}
	return true
}

// withCommentLink returns the page's line t with the link of its comments
// appended, unless t already holds the URL.
func withCommentLink(t, label, url string) string {
	if url == "" || strings.Contains(t, url) {
		return t
	}
	link := "(" + label + ": " + neutralizeMarkup(url) + ")"
	if t == "" {
		return link
	}
	return t + " " + link
}

// mayHoldCommentLink reports whether rest, the part of a page not yet
// read, may hold a comment with a URL, so scanHTML must read on.
func mayHoldCommentLink(rest string) bool {
	k := strings.Index(rest, "<!--")
	return k >= 0 && strings.Contains(rest[k:], "://")
}
