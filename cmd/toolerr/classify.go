package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/translate"
)

// classifiedJSON is one error response in the --json output of classify.
type classifiedJSON struct {
	Source     string          `json:"source"`
	Entry      int             `json:"entry"`
	Method     string          `json:"method,omitempty"`
	Host       string          `json:"host,omitempty"`
	Status     int             `json:"status"`
	Vendor     string          `json:"vendor"`
	VendorCode string          `json:"vendor_code,omitempty"`
	Redacted   map[string]int  `json:"redacted"`
	Problem    json.RawMessage `json:"problem"`
	Fixture    string          `json:"fixture,omitempty"`

	err *toolerr.Error
	now time.Time
}

// classifyJSON is the --json output of classify.
type classifyJSON struct {
	Responses int              `json:"responses"`
	Errors    []classifiedJSON `json:"errors"`
}

// classifyCmd classifies the error responses of capture files: exit 1 when
// it finds one, 0 when every response is a success, 2 when a file cannot
// be read or parsed (the other files are still classified).
func classifyCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, asJSON := newFlags("classify", "[--json] [--host HOST] [--method METHOD] [--now TIME] [--fixture DIR] FILE|-...", stderr)
	host := fs.String("host", "", "the request's host, for raw captures (a HAR file names its own)")
	method := fs.String("method", "GET", "the request's method, for raw captures")
	nowFlag := fs.String("now", "", "the clock delays are measured from, RFC 3339 (default: the response's Date header, else the HAR entry's start, else now)")
	fixtureDir := fs.String("fixture", "", "write each error response as a fixture in `DIR`")
	pos, code := parseArgs(fs, args, 1, -1)
	if code >= 0 {
		return code
	}
	var now time.Time
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			fmt.Fprintf(stderr, "toolerr classify: --now: %v\n", err)
			return exitUsage
		}
		now = t
	}
	if *fixtureDir != "" {
		if err := os.MkdirAll(*fixtureDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "toolerr classify: %v\n", err)
			return exitUsage
		}
	}
	san := sanitize.New()
	out := classifyJSON{Errors: []classifiedJSON{}}
	failed := false
	for _, name := range pos {
		data, err := readInput(name, stdin, maxCaptureFile)
		var caps []captured
		if err == nil {
			caps, err = parseCapture(data)
		}
		if err != nil {
			fmt.Fprintf(stderr, "toolerr classify: %s: %v\n", name, err)
			failed = true
			continue
		}
		for _, c := range caps {
			if c.Host == "" && c.Entry == 0 && len(caps) == 1 {
				c.Host, c.Method = strings.ToLower(*host), strings.ToUpper(*method)
			}
			out.Responses++
			r, ok := classifyResponse(san, c, now)
			if !ok {
				continue
			}
			r.Source = name
			if *fixtureDir != "" {
				path, err := writeFixture(*fixtureDir, len(out.Errors)+1, c, r)
				if err != nil {
					fmt.Fprintf(stderr, "toolerr classify: %v\n", err)
					failed = true
				}
				r.Fixture = path
			}
			out.Errors = append(out.Errors, r)
		}
	}
	if *asJSON {
		writeJSON(stdout, out)
	} else {
		writeClassified(stdout, out)
	}
	switch {
	case failed:
		return exitUsage
	case len(out.Errors) > 0:
		return exitBad
	}
	return exitOK
}

// classifyResponse runs c through the built-in translators, the way
// translate.Response reads a response, with vendor text cleaned by san,
// and reports what san removed. Delays are measured from now, or when it
// is zero from when c was captured. ok is false when c is a success.
func classifyResponse(san *sanitize.Sanitizer, c captured, now time.Time) (classifiedJSON, bool) {
	redacted := map[string]int{}
	filter := func(s string) string {
		clean, rep := san.Clean(s)
		for k := sanitize.Kind(0); k.String() != "unknown"; k++ {
			if n := rep.Count(k); n > 0 {
				redacted[k.String()] += n
			}
		}
		return clean
	}
	if now.IsZero() {
		now = captureTime(c)
	}
	set, err := translate.NewSet(classify.New(nil, classify.WithMessageFilter(filter),
		classify.WithClock(func() time.Time { return now })))
	if err != nil {
		return classifiedJSON{}, false // the built-in tables name only built-in codes
	}
	reqHeader := c.ReqHeader
	if reqHeader == nil {
		reqHeader = http.Header{}
	}
	req := &http.Request{Method: c.Method, URL: &url.URL{Scheme: "https", Host: c.Host}, Header: reqHeader}
	resp := &http.Response{
		StatusCode: c.Status, Header: c.Header, Request: req,
		Body: io.NopCloser(bytes.NewReader(c.Body)), ContentLength: int64(len(c.Body)),
	}
	e, ok := toolerr.From(set.Response(resp))
	if !ok {
		return classifiedJSON{}, false
	}
	problem, _ := e.MarshalJSON()
	r := classifiedJSON{
		Entry: c.Entry, Method: c.Method, Host: c.Host, Status: c.Status,
		Redacted: redacted, Problem: problem, err: e, now: now,
	}
	if e.Upstream != nil {
		r.Vendor, r.VendorCode = e.Upstream.Vendor, e.Upstream.Code
	}
	return r, true
}

// captureTime is the clock delays are measured from: the response's Date
// header, else when the HAR entry started, else now.
func captureTime(c captured) time.Time {
	if t, err := http.ParseTime(c.Header.Get("Date")); err == nil {
		return t
	}
	if !c.Started.IsZero() {
		return c.Started
	}
	return time.Now()
}

// writeClassified prints each error response: where it came from, the
// translator that read it, what was redacted and the problem.
func writeClassified(w io.Writer, out classifyJSON) {
	for i, r := range out.Errors {
		if i > 0 {
			fmt.Fprintln(w)
		}
		host := r.Host
		if host == "" {
			host = "(host unknown)"
		}
		fmt.Fprintf(w, "%s#%d: %s %s -> %d %s\n", r.Source, r.Entry, r.Method, host, r.Status, r.err.Code)
		vendor := "translator: " + r.Vendor
		if r.VendorCode != "" {
			vendor += " (vendor code " + r.VendorCode + ")"
		}
		fmt.Fprintln(w, "  "+vendor)
		fmt.Fprintln(w, "  redacted: "+redactedText(r.Redacted))
		if r.Fixture != "" {
			fmt.Fprintln(w, "  fixture: "+r.Fixture)
		}
		var pretty bytes.Buffer
		if json.Indent(&pretty, r.Problem, "  ", "  ") == nil {
			fmt.Fprintf(w, "  %s\n", pretty.Bytes())
		}
	}
	fmt.Fprintf(w, "%d responses, %d errors\n", out.Responses, len(out.Errors))
}

// redactedText lists the kinds removed as "kind=n", in the sanitizer's
// order, or "nothing".
func redactedText(m map[string]int) string {
	var parts []string
	for k := sanitize.Kind(0); k.String() != "unknown"; k++ {
		if n := m[k.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, n))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ")
}
