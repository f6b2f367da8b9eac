package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/leakprobe"
)

// stripeCapture is a Stripe 402 as curl -i prints it over HTTP/2.
const stripeCapture = "HTTP/2 402 \r\ncontent-type: application/json\r\nrequest-id: req_8x7Yz\r\n\r\n" +
	`{"error":{"type":"card_error","code":"card_declined","decline_code":"generic_decline","message":"Your card was declined."}}`

func TestClassifyGolden(t *testing.T) {
	const dir = "testdata/classify/"
	runGolden(t, []goldenCase{
		{name: "classify_mixed_har", args: []string{"classify", dir + "mixed.har"}, exit: exitBad},
		{name: "classify_mixed_har_json", args: []string{"classify", "--json", dir + "mixed.har"}, exit: exitBad},
		{name: "classify_curl_continue_h2", args: []string{"classify", dir + "curl_continue_h2_nginx.txt"}, exit: exitBad},
		{name: "classify_raw_host", args: []string{"classify", "--host", "api.stripe.com", "--method", "post", dir + "stripe_card_declined.http"}, exit: exitBad},
		{name: "classify_redirect_followed", args: []string{"classify", dir + "curl_redirect_404.txt"}, exit: exitBad},
		{name: "classify_stdin_json", args: []string{"classify", "--json", "--host", "api.stripe.com", "-"}, stdin: stripeCapture, exit: exitBad},
		{name: "classify_success", args: []string{"classify", dir + "success.txt"}, exit: exitOK},
		{name: "classify_success_json", args: []string{"classify", "--json", dir + "success.txt"}, exit: exitOK},
		{name: "classify_not_http", args: []string{"classify", dir + "not_http.txt", dir + "success.txt"}, exit: exitUsage},
		{name: "classify_missing_file", args: []string{"classify", dir + "absent.har"}, exit: exitUsage},
		{name: "classify_no_file", args: []string{"classify"}, exit: exitUsage},
	})
}

// vendorFixture is the part of a testdata/vendors fixture's .json the
// tests read.
type vendorFixture struct {
	Request struct {
		Method     string `json:"method"`
		Host       string `json:"host"`
		Vendor     string `json:"vendor"`
		Idempotent bool   `json:"idempotent"`
	} `json:"request"`
	Expect struct {
		Success bool   `json:"success"`
		Code    string `json:"code"`
		Vendor  string `json:"vendor"`
	} `json:"expect"`
}

// harOf builds a HAR log of the given responses, each answering a request
// to host with method.
func harOf(t *testing.T, entries ...harTestEntry) []byte {
	t.Helper()
	var log harLog
	for _, e := range entries {
		var he harEntry
		he.StartedDateTime = "2026-01-01T00:00:00Z"
		he.Request.Method, he.Request.URL = e.method, "https://"+e.host+"/v1/x"
		he.Response.Status, he.Response.Content.Text = e.status, e.body
		if e.base64 {
			he.Response.Content.Text, he.Response.Content.Encoding = base64.StdEncoding.EncodeToString([]byte(e.body)), "base64"
		}
		if e.idempotent {
			he.Request.Headers = []harHeader{{Name: "Idempotency-Key", Value: "key-1"}}
		}
		for name, vs := range e.header {
			for _, v := range vs {
				he.Response.Headers = append(he.Response.Headers, harHeader{Name: name, Value: v})
			}
		}
		log.Log.Entries = append(log.Log.Entries, he)
	}
	b, err := json.Marshal(log)
	require.NoError(t, err)
	return b
}

type harTestEntry struct {
	method, host string
	status       int
	header       http.Header
	body         string
	base64       bool
	idempotent   bool // the request carried an Idempotency-Key
}

// vendorDirExceptions are the fixture folders whose responses are not
// all read by a translator of the folder's name: what each holds instead.
var vendorDirExceptions = map[string]string{
	"gateway": "one folder for every proxy and CDN: aws-alb, cloudflare, cloudfront, envoy, nginx",
	"generic": "formats, not vendors: unknown, oauth2, a service's own name",
}

// Every fixture of testdata/vendors, read from a HAR entry, is classified
// as translate's fixture test expects: same code, same vendor; and the
// vendor is the fixture folder's name outside the listed exceptions.
// Fixtures where the caller named the vendor are skipped: a capture
// cannot say so.
func TestClassifyEveryVendorFixture(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/vendors/*/*.http")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	checked := 0
	for _, p := range paths {
		base := strings.TrimSuffix(p, ".http")
		dir := filepath.Base(filepath.Dir(p))
		spec, err := os.ReadFile(base + ".json")
		require.NoError(t, err)
		var f vendorFixture
		require.NoError(t, json.Unmarshal(spec, &f), base)
		if f.Request.Vendor != "" {
			continue
		}
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		require.NoError(t, err, base)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		host := f.Request.Host
		if host == "" {
			host = "captured.invalid"
		}
		method := f.Request.Method
		if method == "" {
			method = "GET"
		}
		har := filepath.Join(t.TempDir(), "one.har")
		require.NoError(t, os.WriteFile(har, harOf(t, harTestEntry{method: method, host: host, status: resp.StatusCode, header: resp.Header, body: string(body), idempotent: f.Request.Idempotent}), 0o644))
		code, stdout, stderr := runCommand([]string{"classify", "--json", har}, "")
		var out classifyJSON
		require.NoError(t, json.Unmarshal([]byte(stdout), &out), "%s: %s", base, stderr)
		if f.Expect.Success {
			assert.Equal(t, exitOK, code, base)
			assert.Empty(t, out.Errors, base)
			continue
		}
		require.Equal(t, exitBad, code, "%s: %s", base, stderr)
		require.Len(t, out.Errors, 1, base)
		got := out.Errors[0]
		var problem struct {
			Code string `json:"code"`
		}
		require.NoError(t, json.Unmarshal(got.Problem, &problem))
		assert.Equal(t, f.Expect.Code, problem.Code, "%s: code", base)
		assert.Equal(t, f.Expect.Vendor, got.Vendor, "%s: vendor", base)
		if _, ok := vendorDirExceptions[dir]; !ok {
			assert.Equal(t, dir, got.Vendor, "%s: the folder names the translator", base)
		}
		checked++
	}
	assert.Greater(t, checked, 150, "fixtures checked")
}

// A capture planting every leakprobe secret in its body and headers, as
// JSON, XML, HTML and plain text, comes out with none of them in either
// output format.
func TestClassifyHidesPlantedSecrets(t *testing.T) {
	s := leakprobe.Sentence()
	jsonBody, err := json.Marshal(map[string]any{"error": map[string]any{"message": s, "code": "boom", "param": s}})
	require.NoError(t, err)
	h := func(ct string) http.Header {
		return http.Header{"Content-Type": {ct}, "X-Request-Id": {leakprobe.Probes()[0].Value}, "Set-Cookie": {"session=" + leakprobe.Probes()[1].Value}}
	}
	har := harOf(t,
		harTestEntry{method: "POST", host: "api.stripe.com", status: 402, header: h("application/json"), body: string(jsonBody)},
		harTestEntry{method: "POST", host: "api.acme.example", status: 500, header: h("application/json"), body: string(jsonBody), base64: true},
		harTestEntry{method: "GET", host: "sqs.amazonaws.com", status: 400, header: h("text/xml"), body: "<ErrorResponse><Error><Code>InvalidParameterValue</Code><Message>" + s + "</Message></Error></ErrorResponse>"},
		harTestEntry{method: "GET", host: "api.acme.example", status: 502, header: h("text/html"), body: "<html><head><title>" + s + "</title></head><body><h1>" + s + "</h1></body></html>"},
		harTestEntry{method: "GET", host: "api.acme.example", status: 503, header: h("text/plain"), body: s},
	)
	path := filepath.Join(t.TempDir(), "leak.har")
	require.NoError(t, os.WriteFile(path, har, 0o644))
	for _, args := range [][]string{{"classify", path}, {"classify", "--json", path}} {
		code, stdout, stderr := runCommand(args, "")
		require.Equal(t, exitBad, code, stderr)
		assert.Equal(t, 5, strings.Count(stdout, `"type": "urn:toolerr:`), "every response is an error")
		name, mark := leakprobe.Find([]byte(stdout + stderr))
		assert.Empty(t, name, "leaked %q", mark)
	}
	_, stdout, _ := runCommand([]string{"classify", "--json", path}, "")
	var out classifyJSON
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	redacted := 0
	for _, r := range out.Errors {
		redacted += r.Redacted["secret"] + r.Redacted["payment"]
	}
	assert.Positive(t, redacted, "the report names what was removed")
}

// --fixture writes fixtures that translate's fixture test can load: the
// .http reads with http.ReadResponse, the .json decodes into the fixture
// format with no unknown member, and classifying the written response
// again gives the same code and vendor.
func TestClassifyWritesFixtures(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCommand([]string{"classify", "--json", "--fixture", dir, "testdata/classify/mixed.har"}, "")
	require.Equal(t, exitBad, code, stderr)
	var out classifyJSON
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	require.Len(t, out.Errors, 4)
	names := map[string]bool{}
	for _, r := range out.Errors {
		require.NotEmpty(t, r.Fixture)
		assert.False(t, names[r.Fixture], "one fixture a response")
		names[r.Fixture] = true
		raw, err := os.ReadFile(r.Fixture + ".http")
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		require.NoError(t, err, r.Fixture)
		assert.Equal(t, r.Status, resp.StatusCode)
		spec, err := os.ReadFile(r.Fixture + ".json")
		require.NoError(t, err)
		var f fixtureSpec
		dec := json.NewDecoder(bytes.NewReader(spec))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&f), r.Fixture)
		assert.Equal(t, r.Vendor, f.Expect.Vendor)

		code, again, stderr := runCommand([]string{"classify", "--json", "--now", f.Now, "--host", f.Request.Host, "--method", f.Request.Method, r.Fixture + ".http"}, "")
		require.Equal(t, exitBad, code, stderr)
		var back classifyJSON
		require.NoError(t, json.Unmarshal([]byte(again), &back))
		require.Len(t, back.Errors, 1)
		assert.Equal(t, r.Vendor, back.Errors[0].Vendor, r.Fixture)
		assert.JSONEq(t, string(r.Problem), string(back.Errors[0].Problem), r.Fixture)
	}
}

// A second run into the same folder writes new fixtures beside the first
// ones, never over them.
func TestClassifyFixturesNeverOverwrite(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		code, _, stderr := runCommand([]string{"classify", "--fixture", dir, "testdata/classify/stripe_card_declined.http"}, "")
		require.Equal(t, exitBad, code, stderr)
	}
	written, err := filepath.Glob(filepath.Join(dir, "*.http"))
	require.NoError(t, err)
	assert.Len(t, written, 2)
}

// Oversized and malformed captures are errors, never a panic.
func TestParseCaptureBounds(t *testing.T) {
	_, err := parseCapture(bytes.Repeat([]byte("a"), maxCaptureFile+1))
	assert.Error(t, err)
	big := append([]byte("HTTP/1.1 500 Internal Server Error\r\n\r\n"), bytes.Repeat([]byte("x"), maxResponseBody+10)...)
	caps, err := parseCapture(big)
	require.NoError(t, err)
	assert.True(t, caps[0].Truncated)
	assert.Len(t, caps[0].Body, maxResponseBody)
	for _, bad := range []string{"", "HTTP/1.1\r\n\r\n", "HTTP/1.1 5000 x\r\n\r\n", "HTTP/1.1 abc\r\n\r\n",
		`{"log":{"entries":[{"response":{"content":{"text":"!!","encoding":"base64"}}}]}}`, `{"log":`,
		strings.Repeat("HTTP/1.1 100 Continue\r\n\r\n", maxInterim+2)} {
		_, err := parseCapture([]byte(bad))
		assert.Error(t, err, "%q", bad)
	}
}
