package sanitize

import (
	"strings"
	"testing"
)

// nginxPage4K returns nginx's 502 page padded, as nginx pads error pages
// for old browsers, to 4 KiB.
func nginxPage4K(b *testing.B) string {
	page := readHTMLFixture(b, "nginx_502.html")
	const pad = "<!-- a padding to disable MSIE and Chrome friendly error page -->\r\n"
	return page + strings.Repeat(pad, (4096-len(page))/len(pad)+1)
}

func BenchmarkHTMLToTextNginx(b *testing.B) {
	page := nginxPage4K(b)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		_ = htmlToText(page)
	}
}

func BenchmarkLooksLikeHTMLProse(b *testing.B) {
	prose := traceFreeProse(64 << 10)
	b.ReportAllocs()
	for b.Loop() {
		_ = looksLikeHTML(prose)
	}
}
