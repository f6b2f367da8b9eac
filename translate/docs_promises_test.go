package translate

// Promises of the translate package in docs/ (vendors.md, options.md,
// contract.md), checked on the default path: translate.Response over a
// real HTTP round trip, with no options. The fixture table test
// (fixtures_test.go) runs a Set with a fixed clock and an identity message
// filter; these tests hold the defaults to the same rows of the pages, and
// check that each page still says what its test checks.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// vendorCall is one outbound call answered by a real HTTP server.
type vendorCall struct {
	Method  string
	Host    string // the vendor's host the request names; "" for an unknown one
	IdemKey string // sent as Idempotency-Key when set
	Status  int
	Header  http.Header
	Body    string
}

// callVendor serves c's response from an httptest server, sends the request
// to c.Host (dialled to the server) and returns the response unread.
func callVendor(t *testing.T, c vendorCall) *http.Response {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range c.Header {
			w.Header()[k] = v
		}
		if _, ok := c.Header["Content-Type"]; !ok {
			w.Header()["Content-Type"] = nil // no sniffing: the vendor sent none
		}
		w.WriteHeader(c.Status)
		_, _ = io.WriteString(w, c.Body)
	}))
	t.Cleanup(srv.Close)
	host := c.Host
	if host == "" {
		host = srv.Listener.Addr().String()
	}
	method := c.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, "http://"+host+"/v1/resource", nil)
	require.NoError(t, err)
	if c.IdemKey != "" {
		req.Header.Set("Idempotency-Key", c.IdemKey)
	}
	addr := srv.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}}
	resp, err := client.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// translateCall runs c through translate.Response and returns its error,
// which must be a *toolerr.Error.
func translateCall(t *testing.T, c vendorCall) *toolerr.Error {
	t.Helper()
	err := Response(callVendor(t, c))
	require.Error(t, err)
	var e *toolerr.Error
	require.True(t, errors.As(err, &e), "a *toolerr.Error: %v", err)
	return e
}

// TestVendorsPageFixturesThroughResponse replays every fixture with a
// known host (or none) through translate.Response, with its defaults, and
// expects what the fixture expects ("Vendor translators": every row of the
// table; the fixtures are the table's cases). A delay that depends on the
// clock (an HTTP date, an epoch reset) is checked only for its presence
// rules, not its value; captured responses with a named vendor are the
// middleware's (middleware/docs_promises_test.go).
func TestVendorsPageFixturesThroughResponse(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"Every vendor, the gateways and the generic formats have at least five fixtures in `testdata/vendors/<vendor>/`",
		"run by one table test")
	byVendor := fixtureCases(t)
	vendors := make([]string, 0, len(byVendor))
	for v := range byVendor {
		vendors = append(vendors, v)
	}
	sort.Strings(vendors)
	ran := 0
	for _, vendor := range vendors {
		for _, base := range byVendor[vendor] {
			spec, err := os.ReadFile(base + ".json")
			require.NoError(t, err)
			var f fixture
			require.NoError(t, json.Unmarshal(spec, &f))
			if f.Request.Vendor != "" {
				continue // named by the handler: only the middleware's captures
			}
			ran++
			t.Run(vendor+"/"+filepath.Base(base), func(t *testing.T) {
				resp, body := readFixtureResponse(t, base+".http")
				h := resp.Header.Clone()
				h.Del("Content-Length")
				h.Del("Transfer-Encoding")
				c := vendorCall{Method: f.Request.Method, Host: f.Request.Host, Status: resp.StatusCode, Header: h, Body: string(body)}
				if f.Request.Idempotent {
					c.IdemKey = "key-" + filepath.Base(base)
				}
				err := Response(callVendor(t, c))
				if f.Expect.Success {
					assert.NoError(t, err, "a success")
					return
				}
				var e *toolerr.Error
				require.True(t, errors.As(err, &e), "an error: %v", err)
				assert.Equal(t, f.Expect.Code, e.Code, "code")
				assert.Equal(t, f.Expect.Category, string(e.Category), "category")
				assert.Equal(t, f.Expect.Retryable, e.Retryable, "retryable")
				if !clockDependent(t, base, f, resp, body) {
					assert.Equal(t, f.Expect.RetryAfterMS, e.RetryAfter.Milliseconds(), "retry_after_ms")
				}
				assert.Equal(t, f.Expect.Field, e.Field, "field")
				require.NotNil(t, e.Upstream, "upstream")
				assert.Equal(t, f.Expect.Vendor, e.Upstream.Vendor, "upstream vendor")
				if f.Expect.VendorCode != nil {
					assert.Equal(t, *f.Expect.VendorCode, e.Upstream.Code, "upstream code")
				}
				for k, v := range f.Expect.Details {
					if s, ok := v.(string); ok {
						v = defaultSanitizer.CleanText(s) // what the default filter makes of it
					}
					assert.Equal(t, v, e.Details[k], "details[%s]", k)
				}
				assert.Empty(t, e.DocsURL, "a vendor's link is never the code's docs_url")
			})
		}
	}
	assert.Greater(t, ran, 250, "most fixtures run on the default path")
}

// defaultSanitizer is the sanitizer classify.New(nil) filters vendor text
// with ("Options and defaults": classify.WithMessageFilter).
var defaultSanitizer = sanitize.New()

// clockDependent reports whether the fixture's delay changes with the
// clock: the same Set run at the fixture's time and a year later disagree.
func clockDependent(t *testing.T, base string, f fixture, resp *http.Response, body []byte) bool {
	t.Helper()
	now := fixtureNow
	if f.Now != "" {
		var err error
		now, err = time.Parse(time.RFC3339, f.Now)
		require.NoError(t, err)
	}
	delay := func(at time.Time) time.Duration {
		set, err := NewSet(classify.New(nil, classify.WithClock(func() time.Time { return at })))
		require.NoError(t, err)
		r := &Raw{Method: f.Request.Method, Host: f.Request.Host, Idempotent: f.Request.Idempotent,
			Status: resp.StatusCode, Header: resp.Header, Body: body}
		if e := set.Classify(context.Background(), r); e != nil {
			return e.RetryAfter
		}
		return 0
	}
	return delay(now) != delay(now.AddDate(1, 0, 0))
}

// "translate.Response(resp) … reads at most 64 KiB" ("Options and
// defaults": WithBodyCap 64 KiB): a problem+json body ("generic | a
// body's retryable and retry_after_ms are honoured") that fits is read
// whole, one byte more is cut and its JSON no longer parses.
func TestVendorsPageResponseReadsAtMost64KiB(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"`translate.Response(resp)` returns nil for a success and otherwise an `*toolerr.Error` with `upstream` filled; it reads at most 64 KiB and leaves `resp.Body` readable.")
	docpage.Says(t, "../docs/options.md",
		"| `WithBodyCap(n)` | 64 KiB of a body read by `Set.Response`, which leaves the body readable |")
	body := func(size int) string {
		head := `{"type":"about:blank","title":"Busy","status":503,"retryable":true,"retry_after_ms":4321,"detail":"busy","pad":"`
		tail := `"}`
		return head + strings.Repeat("p", size-len(head)-len(tail)) + tail
	}
	call := func(b string) *toolerr.Error {
		return translateCall(t, vendorCall{Method: "GET", Status: 503,
			Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: b})
	}
	fits := body(64 << 10)
	require.Len(t, fits, 64<<10)
	assert.Equal(t, 4321*time.Millisecond, call(fits).RetryAfter, "64 KiB is read whole")
	over := body(64<<10 + 1)
	assert.NotEqual(t, 4321*time.Millisecond, call(over).RetryAfter, "past 64 KiB the body is cut")
}

// "By default (classify.New(nil), which translate.Response uses) the
// vendor's message, field and string details … pass through the default
// sanitizer": a secret and an internal host in a vendor message do not
// reach the error; the rest of the message does.
func TestOptionsPageResponseSanitizesVendorText(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"By default (`classify.New(nil)`, which `translate.Response` uses) the vendor's message, field and string details, such as Stripe's `decline_code` and `doc_url`, pass through the default sanitizer")
	e := translateCall(t, vendorCall{
		Method: http.MethodPost, Host: "api.stripe.com", Status: http.StatusBadRequest,
		Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_Pq4Zx8Lm2Nv6Tb"}},
		Body: `{"error":{"type":"invalid_request_error","code":"parameter_invalid_string_blank","param":"metadata[note]",` +
			`"message":"Invalid note: postgres://billing:Wq8zT3vK9pLm2xR@db-1.billing.internal:5432/ledger is not allowed."}}`,
	})
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Contains(t, e.Detail, "Invalid note")
	assert.NotContains(t, e.Detail, "Wq8zT3vK9pLm2xR")
	assert.NotContains(t, e.Detail, "billing.internal")
	assert.Equal(t, "metadata[note]", e.Field)
}

// The error's members never carry the raw body ("raw vendor bodies … are
// never rendered"): the rendered error holds the vendor's message, not its
// JSON.
func TestContractPageResponseRendersNoRawBody(t *testing.T) {
	docpage.Says(t, "../docs/contract.md",
		"the Go cause chain, stack traces, raw vendor bodies and headers are never rendered.")
	e := translateCall(t, vendorCall{
		Method: http.MethodGet, Host: "api.openai.com", Status: http.StatusTooManyRequests,
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3"}},
		Body:   `{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
	})
	var buf bytes.Buffer
	rec := httptest.NewRecorder()
	toolerr.Write(rec, httptest.NewRequest("GET", "/tools/x", nil), e)
	buf.Write(rec.Body.Bytes())
	assert.NotContains(t, buf.String(), `"type":"requests"`)
	assert.Contains(t, buf.String(), `"retry_after_ms":3000`)
	assert.Contains(t, buf.String(), `"code":"RATE_LIMITED"`)
}

// "generic | problem+json code, OAuth error, {"error":{"code"}},
// {"errors":[…]}, {"message"} … | by status; a body's retryable and
// retry_after_ms are honoured", in each shape that can carry them.
func TestVendorsPageGenericBodyRetryAdviceHonoured(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| generic | problem+json `code`, OAuth `error`, `{\"error\":{\"code\"}}`, `{\"errors\":[…]}`, `{\"message\"}`, GraphQL `errors` without data, plain text, empty | by status; a body's `retryable` and `retry_after_ms` are honoured |")
	for _, tc := range []struct {
		name, ct, body string
		status         int
		retryable      bool
		delay          time.Duration
	}{
		{"problem retry_after_ms", "application/problem+json", `{"type":"about:blank","title":"Busy","status":503,"detail":"busy","retry_after_ms":1500}`, 503, true, 1500 * time.Millisecond},
		{"problem retryable false", "application/problem+json", `{"type":"about:blank","title":"Busy","status":503,"detail":"busy","retryable":false}`, 503, false, 0},
		{"error object retry_after_ms", "application/json", `{"error":{"code":"busy","message":"Try later.","retry_after_ms":2500}}`, 503, true, 2500 * time.Millisecond},
		{"error object retryable false", "application/json", `{"error":{"code":"busy","message":"Try later.","retryable":false}}`, 503, false, 0},
		{"message retry_after_ms", "application/json", `{"message":"Try later.","retryable":true,"retry_after_ms":3500}`, 503, true, 3500 * time.Millisecond},
		{"message retryable false", "application/json", `{"message":"Try later.","retryable":false}`, 503, false, 0},
		{"errors retry_after_ms", "application/json", `{"errors":[{"message":"Try later."}],"retry_after_ms":4500}`, 503, true, 4500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := translateCall(t, vendorCall{Method: "GET", Status: tc.status,
				Header: http.Header{"Content-Type": {tc.ct}}, Body: tc.body})
			assert.Equal(t, tc.retryable, e.Retryable)
			assert.Equal(t, tc.delay, e.RetryAfter)
		})
	}
}
