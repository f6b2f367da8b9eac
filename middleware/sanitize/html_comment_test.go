package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHTMLCommentLinkKept checks that an error page's public URL in a
// comment survives the reduction to one line, sanitized, and that other
// comments still add nothing. Issue 27 §3.3.
func TestHTMLCommentLinkKept(t *testing.T) {
	const nginx502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n" +
		"<!-- see %s for incidents -->\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n"
	cases := []struct{ name, in, want string }{
		{"nginx 502 with a status page",
			sprintfPage(nginx502, "https://status.example.com"),
			"upstream HTML error page: 502 Bad Gateway (status: https://status.example.com)"},
		{"a status page URL with a path and a sentence's full stop",
			`<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1>` +
				`<!-- Scheduled maintenance. Follow https://www.githubstatus.com/incidents/x7k2. --></body></html>`,
			"upstream HTML error page: 503 Service Unavailable (status: https://www.githubstatus.com/incidents/x7k2)"},
		{"a help link",
			`<html><head><title>Error 1020</title></head><body><h1>Access denied</h1><!-- For help visit https://support.example.com/hc/articles/360029779472 --></body></html>`,
			"upstream HTML error page: Error 1020 (see: https://support.example.com/hc/articles/360029779472)"},
		{"a secret in the link's query",
			`<html><head><title>502 Bad Gateway</title></head><body><!-- status: https://status.example.com/?token=7Fq2Lk9Xw3Rt8Zp1Vb6N --></body></html>`,
			"upstream HTML error page: 502 Bad Gateway (status: https://status.example.com/?token=[REDACTED:token])"},
		{"an internal status host is not kept",
			sprintfPage(nginx502, "http://status.corp.internal"),
			"upstream HTML error page: 502 Bad Gateway"},
		{"a private address is not kept",
			sprintfPage(nginx502, "http://10.0.3.7:8080/status"),
			"upstream HTML error page: 502 Bad Gateway"},
		{"a single-label host is not kept",
			sprintfPage(nginx502, "http://statuspage/"),
			"upstream HTML error page: 502 Bad Gateway"},
		{"a conditional comment loading a script adds nothing",
			`<html><head><!--[if lt IE 9]><script src="https://oss.maxcdn.com/html5shiv/3.7.3/html5shiv.min.js"></script><![endif]--><title>500 Internal Server Error</title></head><body></body></html>`,
			"upstream HTML error page: 500 Internal Server Error"},
		{"a padding comment adds nothing",
			"<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><hr><center>nginx</center></body></html>\r\n<!-- a padding to disable MSIE and Chrome friendly error page -->",
			"upstream HTML error page: 404 Not Found"},
		{"a link already in the line is not repeated",
			`<html><head><title>Down, see https://status.example.com</title></head><body><!-- see https://status.example.com --></body></html>`,
			"upstream HTML error page: Down, see https://status.example.com"},
		{"markup in a comment's URL cannot form a tag",
			`<html><head><title>502</title></head><body><!-- status https://status.example.com/&lt;script&gt; --></body></html>`,
			"upstream HTML error page: 502 (status: https://status.example.com/)"}, // the comment is decoded: the URL ends at its '<'
	}
	for _, s := range []*Sanitizer{New(WithHostname("")), New(WithHostname(""), withoutPrefilter())} {
		for _, c := range cases {
			out, _ := s.Clean(c.in)
			assert.Equal(t, c.want, out, c.name)
			again, _ := s.Clean(out)
			assert.Equal(t, out, again, "%s: not idempotent", c.name)
		}
	}
}

// sprintfPage puts url in the page's one %s.
func sprintfPage(page, url string) string {
	before, after, _ := strings.Cut(page, "%s")
	return before + url + after
}
