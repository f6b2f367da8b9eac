package translate

import (
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/internal/canonheader"
)

// What kind of response a proxy made: plain text, an HTML page, a page
// titled with its status, and the Server header that names the proxy.

// isPlainTextBody reports whether r's body is plain text of a proxy: a
// text/plain or absent media type, and a body that is not JSON, XML or HTML.
func isPlainTextBody(r *Raw) bool {
	ct := r.ContentType()
	if ct != "" && ct != "text/plain" {
		return false
	}
	b := trimLeftSpace(r.Body)
	return len(b) > 0 && b[0] != '{' && b[0] != '[' && b[0] != '<'
}

// isHTMLPage reports whether r's body looks like an HTML page: an HTML media
// type or a body that starts with markup.
func isHTMLPage(r *Raw) bool {
	if r.IsHTML() {
		return true
	}
	ct := r.ContentType()
	b := trimLeftSpace(r.Body)
	return (ct == "" || ct == "text/plain") && len(b) > 0 && b[0] == '<' && !r.IsXML()
}

// isStatusTitle reports whether title starts with a three-digit status, as
// "502 Bad Gateway" does: the title of a proxy's own error page.
func isStatusTitle(title string) bool {
	return len(title) >= 3 && isDigitByte(title[0]) && isDigitByte(title[1]) && isDigitByte(title[2]) &&
		(len(title) == 3 || title[3] == ' ')
}

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// serverHeader returns the Server header in lower case.
func serverHeader(h http.Header) string {
	return strings.ToLower(strings.TrimSpace(canonheader.Value(h, "Server")))
}
