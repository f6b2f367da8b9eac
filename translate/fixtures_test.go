package translate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// A fixture is a pair of files in testdata/vendors/<vendor>/: <case>.http,
// the raw HTTP response (status line, headers, blank line, body; no
// Content-Length, the body runs to the end of the file), and <case>.json,
// the request it answers and what the Set must make of it.
type fixture struct {
	// Request describes the call the response answers.
	Request struct {
		Method     string `json:"method"`
		Host       string `json:"host"`   // "" for a captured response
		Vendor     string `json:"vendor"` // the vendor the caller named
		Idempotent bool   `json:"idempotent"`
	} `json:"request"`
	// Now is the clock for HTTP-date and epoch delays, RFC 3339;
	// default fixtureNow.
	Now    string `json:"now"`
	Expect struct {
		// Success: the response is not an error (Set.Classify returns nil).
		Success      bool    `json:"success"`
		Code         string  `json:"code"`
		Category     string  `json:"category"`
		Retryable    bool    `json:"retryable"`
		RetryAfterMS int64   `json:"retry_after_ms"`
		Field        string  `json:"field"`
		Vendor       string  `json:"vendor"`
		VendorCode   *string `json:"vendor_code"` // checked when present
		// Details are checked as a subset of the error's details.
		Details map[string]any `json:"details"`
	} `json:"expect"`
}

// fixtureNow is the default clock of the fixtures.
var fixtureNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// fixtureDir holds a folder per vendor, gateway and generic format.
const fixtureDir = "../testdata/vendors"

// readFixtureResponse parses a .http file.
func readFixtureResponse(t *testing.T, path string) (*http.Response, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	require.NoError(t, err, "%s: not an HTTP response", path)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// fixtureCases returns every fixture path (without extension) by vendor.
func fixtureCases(t *testing.T) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtureDir, "*", "*.http"))
	require.NoError(t, err)
	byVendor := map[string][]string{}
	for _, p := range paths {
		vendor := filepath.Base(filepath.Dir(p))
		byVendor[vendor] = append(byVendor[vendor], strings.TrimSuffix(p, ".http"))
	}
	return byVendor
}

// TestFixtures runs every vendor fixture through a Set with the built-in
// translators and checks the error it makes.
func TestFixtures(t *testing.T) {
	byVendor := fixtureCases(t)
	vendors := make([]string, 0, len(byVendor))
	for v := range byVendor {
		vendors = append(vendors, v)
	}
	sort.Strings(vendors)
	for _, vendor := range vendors {
		t.Run(vendor, func(t *testing.T) {
			for _, base := range byVendor[vendor] {
				t.Run(filepath.Base(base), func(t *testing.T) { runFixture(t, base) })
			}
		})
	}
}

// runFixture checks one fixture.
func runFixture(t *testing.T, base string) {
	spec, err := os.ReadFile(base + ".json")
	require.NoError(t, err, "every .http has a .json")
	var f fixture
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&f), "%s.json", base)
	now := fixtureNow
	if f.Now != "" {
		now, err = time.Parse(time.RFC3339, f.Now)
		require.NoError(t, err)
	}
	keep := func(s string) string { return s } // details and messages reach the error as they are
	set, err := NewSet(classify.New(nil, classify.WithClock(func() time.Time { return now }), classify.WithMessageFilter(keep)))
	require.NoError(t, err)

	resp, body := readFixtureResponse(t, base+".http")
	r := &Raw{
		Method: f.Request.Method, Host: f.Request.Host, Vendor: f.Request.Vendor, Idempotent: f.Request.Idempotent,
		Status: resp.StatusCode, Header: resp.Header, Body: body,
	}
	e := set.Classify(context.Background(), r)
	if f.Expect.Success {
		assert.Nil(t, e, "a success")
		return
	}
	require.NotNil(t, e, "an error")
	assert.Equal(t, f.Expect.Code, e.Code, "code")
	assert.Equal(t, f.Expect.Category, string(e.Category), "category")
	assert.Equal(t, f.Expect.Retryable, e.Retryable, "retryable")
	assert.Equal(t, f.Expect.RetryAfterMS, e.RetryAfter.Milliseconds(), "retry_after_ms")
	assert.Equal(t, f.Expect.Field, e.Field, "field")
	require.NotNil(t, e.Upstream, "upstream")
	assert.Equal(t, f.Expect.Vendor, e.Upstream.Vendor, "upstream vendor")
	if f.Expect.VendorCode != nil {
		assert.Equal(t, *f.Expect.VendorCode, e.Upstream.Code, "upstream code")
	}
	for k, v := range f.Expect.Details {
		assert.Equal(t, v, e.Details[k], "details[%s]", k)
	}
	assert.Empty(t, e.DocsURL, "a vendor's link is never the code's docs_url")
}

// fixtureVendors are the folders the issue requires, each with at least
// minFixtures cases.
var fixtureVendors = []string{
	"stripe", "github", "aws", "google", "salesforce", "twilio", "slack", "openai",
	"anthropic", "shopify", "msgraph", "paypal", "sendgrid", "hubspot", "jira",
	"gateway", "generic",
}

const (
	minFixtures      = 5
	minFixturesTotal = 150
)

func TestFixtureCoverage(t *testing.T) {
	byVendor := fixtureCases(t)
	total := 0
	for _, v := range fixtureVendors {
		assert.GreaterOrEqual(t, len(byVendor[v]), minFixtures, "fixtures of %s", v)
	}
	for _, cases := range byVendor {
		total += len(cases)
	}
	assert.GreaterOrEqual(t, total, minFixturesTotal, "fixtures in all")
}
