package mcptest

import (
	"strconv"
	"strings"
	"testing"
)

// What the suite's tools plant in their errors, panics and upstream
// answers. The tokens are random-looking: the sanitizer keeps counting
// sequences and vendors' documented examples as stand-ins.
const (
	secretPassword = "password=hunter2hunter2"
	secretStripe   = "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd"
	secretAWSKeyID = "AKIAZ7QK3NWP4XGH2R6M"
	secretAWSKey   = "aws_secret_access_key=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"
	secretBearer   = "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzdmMifQ.Xq7Lm2Rp9ZkT4wNb8VcY3hJd6Fs"
	secretDSN      = "postgres://svc:pw@db.prod.internal:5432/orders"
	internalHost   = "db.prod.internal"
	internalIP     = "10.0.3.7"

	// goStack is a Go stack trace as a handler's error or panic value
	// may quote it.
	goStack = "goroutine 7 [running]:\nmain.(*Ledger).Charge(0xc000112000, {0x6c1e20, 0xc0000a4000})\n" +
		"\t/srv/ledger/charge.go:42 +0x1d\nmain.main()\n\t/srv/ledger/main.go:12 +0x25"

	// htmlPage is a gateway's error page naming the internal host.
	htmlPage = `<!doctype html><html><head><title>502 Bad Gateway</title></head><body>` +
		`<h1>502 Bad Gateway</h1><pre>upstream ` + internalHost + ` (` + internalIP + `) refused the connection</pre>` +
		`<hr><address>nginx/1.25.3</address></body></html>`

	// hostileText is every secret, internal address, the stack and the page
	// in one text.
	hostileText = "charge failed: " + secretPassword + " key " + secretStripe + " aws " + secretAWSKeyID + " " +
		secretAWSKey + " header " + secretBearer + " dsn " + secretDSN + " at " + internalIP + "\n" + goStack + "\n" + htmlPage
)

var (
	// secretMarkers are fragments of the secrets: none may reach the
	// client, the log or a span, anywhere.
	secretMarkers = []string{"hunter2hunter2", "Rk7Qm2ZpX9aLw4Tn", "Z7QK3NWP4XGH2R6M", "Zq8Kd3Vb2QwJalrX",
		"eyJzdWIiOiJzdmMifQ", "Xq7Lm2Rp9ZkT4wNb", "svc:pw@"}
	// exposureMarkers are internal names, stack frames and HTML: never to
	// the client; the operator's log may keep them in a cause or stack.
	exposureMarkers = []string{internalHost, internalIP, "goroutine ", "charge.go:", "/srv/ledger", "runtime/debug",
		"<!doctype", "<html", "<body", "<pre", "<h1"}
)

// jsonUnescaper undoes the escapes a JSON encoder may use for characters
// of HTML, so that markers are found in raw bodies.
var jsonUnescaper = strings.NewReplacer(`\u003c`, "<", `\u003C`, "<", `\u003e`, ">", `\u003E`, ">",
	`\u0026`, "&", `\/`, "/")

// assertClean fails t when s holds a secret or an exposure marker: the
// rule for every byte a client gets.
func assertClean(t testing.TB, where, s string) {
	t.Helper()
	s = jsonUnescaper.Replace(s)
	for _, m := range secretMarkers {
		if strings.Contains(s, m) {
			t.Errorf("%s: a secret (%q) reaches the client: %s", where, m, excerpt(s, m))
		}
	}
	for _, m := range exposureMarkers {
		if strings.Contains(s, m) {
			t.Errorf("%s: %q reaches the client: %s", where, m, excerpt(s, m))
		}
	}
}

// assertNoSecret fails t when s holds a secret marker: the rule for the
// operator's cause and stack, which may name internal hosts.
func assertNoSecret(t testing.TB, where, s string) {
	t.Helper()
	for _, m := range secretMarkers {
		if strings.Contains(s, m) {
			t.Errorf("%s: a secret (%q) is recorded: %s", where, m, excerpt(s, m))
		}
	}
}

// assertCleanValue walks every string of a decoded JSON value, keys too.
func assertCleanValue(t testing.TB, where string, v any) {
	t.Helper()
	walkStrings(v, where, func(path, s string) { assertClean(t, path, s) })
}

// walkStrings calls f for every string (keys too) in a decoded JSON value.
func walkStrings(v any, path string, f func(path, s string)) {
	switch v := v.(type) {
	case string:
		f(path, v)
	case map[string]any:
		for k, x := range v {
			f(path+" (key)", k)
			walkStrings(x, path+"."+k, f)
		}
	case []any:
		for i, x := range v {
			walkStrings(x, path+"["+strconv.Itoa(i)+"]", f)
		}
	}
}

// excerpt returns the text around the first m in s.
func excerpt(s, m string) string {
	i := strings.Index(s, m)
	lo, hi := max(0, i-60), min(len(s), i+len(m)+60)
	return strconv.Quote(s[lo:hi])
}
