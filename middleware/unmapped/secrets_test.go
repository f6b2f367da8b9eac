package unmapped

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// hostile is one text of the repository's hostile corpora and the marks
// that must not appear in any sample, log record or handler output made
// from it.
type hostile struct {
	name  string
	text  string
	marks []string
}

// Marks of the texts that are not payment corpora: every probe of
// leakprobe, and internal hosts.
var (
	internalHosts = []string{"10.20.30.40", "orders-db.prod.internal", "169.254.169.254", "payments.svc.cluster.local"}
	// cookieMark and authMark are the values of the headers a sample never
	// keeps; the sanitizer would not recognize them as secrets.
	cookieMark = "sid=CookieMarkQx7"
	authMark   = "AuthMarkZk3Lp"
)

// hostileCorpus reads the corpora: the planted probes; the payment
// corpora that list their secrets; the HTML error and debug pages, HTML
// fragments and stack traces, each with the secrets, internal addresses
// and frames it holds.
func hostileCorpus(t *testing.T) []hostile {
	t.Helper()
	var probeMarks []string
	for _, p := range leakprobe.Probes() {
		probeMarks = append(probeMarks, p.Marks...)
	}
	out := []hostile{
		{"leakprobe sentence", leakprobe.Sentence(), probeMarks},
		{"leakprobe stripe decline", leakprobe.StripeDecline, leakprobe.PaymentMarks()},
		{"internal hosts", "dial tcp 10.20.30.40:5432 (orders-db.prod.internal) via 169.254.169.254 and payments.svc.cluster.local:443 refused", internalHosts},
		{"pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1n3Xq8sL0pQk2Y7cWzR5tHbV9mJgFfUaLqNxKe4oPrDs\n-----END RSA PRIVATE KEY-----", []string{"MIIEpAIBAAKCAQEA1n3Xq8sL0pQk2Y7cWzR5tHbV9mJgFfUaLqNxKe4oPrDs"}},
		{"dsn", "open postgres://app:Hunter2Zq9xK@10.20.30.40:5432/orders failed", []string{"Hunter2Zq9xK", "10.20.30.40"}},
		{"bearer", "upstream rejected Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", []string{"dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJzdWIiOiIxMjM0NTY3ODkwIn0"}},
	}
	for _, f := range []string{"independent/true.jsonl", "independent2/true.jsonl"} {
		path := filepath.Join("..", "sanitize", "testdata", "payment", filepath.FromSlash(f))
		file, err := os.Open(path)
		require.NoError(t, err)
		sc := bufio.NewScanner(file)
		n := 0
		for sc.Scan() {
			var c struct {
				ID      string   `json:"id"`
				Text    string   `json:"text"`
				Secrets []string `json:"secrets"`
			}
			require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
			require.NotEmpty(t, c.Secrets, "%s %s lists its secrets", f, c.ID)
			out = append(out, hostile{f + " " + c.ID, c.Text, c.Secrets})
			n++
		}
		require.NoError(t, sc.Err())
		require.NoError(t, file.Close())
		require.Greater(t, n, 100, "%s holds the corpus", f)
	}
	out = append(out, wantCorpus(t)...)
	// The pages and traces, with what each holds that must go: secrets,
	// addresses, and the source lines of its frames.
	fixtureMarks := map[string][]string{
		"werkzeug_debugger.html":     {"Yx7fQpL2mN8vR3tK9wZc"},
		"form_echo.txt":              {"4eC39HqLyjWDarjtT1zdp7dc", "Zm9vYmFyYmF6cXV4cXV1eGNvcmdl", "hunter2-Secret"},
		"script_style_no_title.html": {"secret-inline-value"},
		"json_sentry_frames.json":    {"51H8abcdefghijklmnop"},
		"node_econnrefused.txt":      {"10.0.3.7"},
		"beego_panic.html":           {"10.0.3.7"},
		"express_pre.txt":            {"/app/"},
		"python_traceback.txt":       {"File \""},
		"java_caused_by.txt":         {"\tat ", "at com."},
		"go_panic.txt":               {"goroutine 1", ".go:"},
	}
	found := 0
	for _, dir := range []string{"../../testdata/html", "../../testdata/stacks", "../sanitize/testdata/html",
		"../sanitize/testdata/html_fragments", "../sanitize/testdata/stacks"} {
		files, err := filepath.Glob(filepath.Join(filepath.FromSlash(dir), "*"))
		require.NoError(t, err)
		require.NotEmpty(t, files, dir)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			marks := fixtureMarks[filepath.Base(f)]
			if marks != nil {
				found++
			}
			for _, m := range marks {
				require.Contains(t, string(b), m, "%s: the mark is in the fixture", f)
			}
			// Every page and trace also carries the probes, in its first
			// line, where the sample's body begins.
			text := leakprobe.Sentence() + "\n" + string(b)
			out = append(out, hostile{f, text, append(marks, probeMarks...)})
		}
	}
	require.Len(t, fixtureMarks, found, "every fixture with marks was read")
	for _, h := range out {
		require.NotEmpty(t, findMark(h, h.text), "%s: a mark is planted", h.name)
	}
	return out
}

// wantCorpus reads the payment corpora that give the cleaned text
// ("want") rather than the secrets: the text the cleaning replaced is
// where the text and its cleaning differ, and of that what no sink may
// hold is the card number without its last four digits, the IBAN without
// its country and last four, the SSN whole. A mark
// shorter than six bytes would be found in unrelated text and is left
// out.
func wantCorpus(t *testing.T) []hostile {
	t.Helper()
	var out []hostile
	// security_codes.jsonl is left out: its codes are all shorter than six
	// bytes (the independent corpora list theirs with their context).
	for _, name := range []string{"cards.jsonl", "ibans.jsonl", "ssns.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "sanitize", "testdata", "payment", name))
		require.NoError(t, err)
		n := 0
		for line := range strings.Lines(string(b)) {
			var c struct{ Kind, Form, Text, Want string }
			require.NoError(t, json.Unmarshal([]byte(line), &c), line)
			if c.Want == "" {
				continue
			}
			p := 0
			for p < len(c.Text) && p < len(c.Want) && c.Text[p] == c.Want[p] {
				p++
			}
			q := 0
			for q < len(c.Text)-p && q < len(c.Want)-p && c.Text[len(c.Text)-1-q] == c.Want[len(c.Want)-1-q] {
				q++
			}
			mark := c.Text[p : len(c.Text)-q]
			switch c.Kind {
			case "card":
				mark = mark[:max(0, len(mark)-4)]
			case "iban":
				mark = mark[min(2, len(mark)):max(min(2, len(mark)), len(mark)-4)]
			}
			if len(strings.TrimSpace(mark)) < 6 {
				continue
			}
			out = append(out, hostile{name + " " + c.Form + " " + c.Text, c.Text, []string{mark}})
			n++
		}
		require.Greater(t, n, 10, "%s gives marks", name)
	}
	return out
}

// placements put a hostile text in every field of a response: the body,
// each allow-listed header a vendor fills, the vendor code and the vendor
// name; and put markers in the headers a sample never keeps.
var placements = map[string]func(text string) Response{
	"body": func(text string) Response { return Response{Vendor: "stripe", Status: 502, Body: []byte(text)} },
	"headers": func(text string) Response {
		return Response{Vendor: "stripe", Status: 502, Header: http.Header{
			"Server": {text}, "Via": {text}, "X-Request-Id": {text}, "Request-Id": {text}, "X-Cache": {text},
			"Content-Type": {text}, "Retry-After": {text}, "Cf-Ray": {text},
			"Set-Cookie": {cookieMark + "; " + text}, "Authorization": {"Basic " + authMark},
			"Www-Authenticate": {authMark},
		}}
	},
	"vendor code": func(text string) Response { return Response{Vendor: "stripe", Status: 400, VendorCode: text} },
	"vendor name": func(text string) Response { return Response{Vendor: text, Status: 500} },
}

// findMark returns the first mark of h (or of the never-kept headers) in
// written, as it is or as JSON escapes it ("<" as \u003c), or "".
func findMark(h hostile, written string) string {
	for _, m := range append([]string{cookieMark, authMark}, h.marks...) {
		quoted, _ := json.Marshal(m)
		if strings.Contains(written, m) || strings.Contains(written, string(quoted[1:len(quoted)-1])) {
			return m
		}
	}
	return ""
}

// TestNoSampleHoldsASecret offers every text of the hostile corpora in
// every field of a response, one sampler per text and placement, with a
// real slog JSON handler, and searches every place a sample is written:
// Samples(), the handler's JSON and text, and the log.
func TestNoSampleHoldsASecret(t *testing.T) {
	corpus := hostileCorpus(t)
	require.Greater(t, len(corpus), 600)
	t.Logf("%d hostile texts", len(corpus))
	for where, place := range placements {
		t.Run(where, func(t *testing.T) {
			for _, h := range corpus {
				clock := newTestClock()
				var logs leakprobe.Buffer
				s := New(WithClock(clock.Now), WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{ReplaceAttr: dropTime}))),
					WithSanitizer(sanitize.New(sanitize.WithHostname(""))))
				require.True(t, s.Offer(context.Background(), place(h.text)), h.name)
				clock.Advance(time.Minute)

				smp := s.Samples()
				require.Len(t, smp, 1)
				for name := range smp[0].Header {
					assert.Contains(t, s.fields.headers, name, "%s: only allowed headers", h.name)
				}
				fields, err := json.Marshal(smp) // the struct's strings, as they are
				require.NoError(t, err)
				written := map[string]string{
					"Samples":      strings.Join([]string{smp[0].Vendor, smp[0].Code, smp[0].VendorCode, smp[0].Body, leakprobe.HeaderText(toHeader(smp[0].Header))}, "\n"),
					"Samples JSON": string(fields),
					"handler JSON": serve(t, s, "application/json"),
					"handler text": serve(t, s, "text/plain"),
					"log":          string(logs.Bytes()),
				}
				assert.Contains(t, written["log"], logMessage, h.name)
				for sink, text := range written {
					if m := findMark(h, text); m != "" {
						t.Errorf("%s in the %s: %s holds %q:\n%s", h.name, where, sink, m, text)
					}
					assert.NotContains(t, text, "Set-Cookie", "%s: %s", h.name, sink)
					assert.NotContains(t, text, "Www-Authenticate", "%s: %s", h.name, sink)
				}
			}
		})
	}
}

// dropTime removes the time of a log record, whose digits would match the
// short marks (a card security code such as "775").
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// toHeader returns a sample's headers as an http.Header.
func toHeader(m map[string]string) http.Header {
	h := http.Header{}
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}

// serve returns the body of a GET of the handler asking for accept.
func serve(t *testing.T, s *Sampler, accept string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/debug/toolerr/unmapped", nil)
	req.Header.Set("Accept", accept)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	b, err := io.ReadAll(rec.Result().Body)
	require.NoError(t, err)
	return string(b)
}
