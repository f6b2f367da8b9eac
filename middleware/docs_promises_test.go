package middleware

// Promises of the middleware in docs/ (options.md, middleware.md,
// contract.md, vendors.md, classification.md), checked with
// middleware.New() and no options at all. Each test also checks that its
// page still says what it checks.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/translate"
)

// serveDefault runs h behind New() with no options on a loopback server.
func serveDefault(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(New()(h))
	t.Cleanup(srv.Close)
	return srv.URL
}

// "WithBodyCap(n) | 64 KiB of a raw error body buffered; the rest drained
// and dropped": a JSON error body of exactly 64 KiB is read whole (its
// message is the detail); one byte more and it is cut, so its JSON is not
// read.
func TestOptionsPageMiddlewareBodyCap64KiB(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithBodyCap(n)` | 64 KiB of a raw error body buffered; the rest drained and dropped |")
	docpage.Says(t, "../docs/middleware.md",
		"buffered up to the cap (64 KiB; the rest is drained and dropped)")
	const marker = "Shipmentreferencemustbealphanumeric"
	body := func(size int) string {
		head, tail := `{"pad":"`, `","message":"`+marker+`"}`
		return head + strings.Repeat("p", size-len(head)-len(tail)) + tail
	}
	detail := func(b string) string {
		url := serveDefault(t, rawHandler(http.StatusBadRequest, map[string]string{"Content-Type": "application/json"}, b))
		resp, out := do(t, http.MethodPost, url, nil, "")
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		m := problem(t, out)
		assert.Equal(t, toolerr.CodeValidationFailed, m["code"])
		d, _ := m["detail"].(string)
		return d
	}
	fits := body(64 << 10)
	require.Len(t, fits, 64<<10)
	assert.Equal(t, marker, detail(fits), "64 KiB is buffered whole")
	assert.NotContains(t, detail(body(64<<10+1)), marker, "past 64 KiB the body is cut")
}

// "Only the CORS headers, Vary, HSTS and X-Request-Id of the handler's
// response survive the replacement."
func TestMiddlewarePageReplacementKeepsOnlyCORSVaryHSTS(t *testing.T) {
	docpage.Says(t, "../docs/middleware.md",
		"Only the CORS headers, `Vary`, HSTS and `X-Request-Id` of the handler's response survive the replacement.")
	url := serveDefault(t, rawHandler(http.StatusNotFound, map[string]string{
		"Content-Type":                     "text/html",
		"Access-Control-Allow-Origin":      "https://app.example.com",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Expose-Headers":    "X-Request-Id",
		"Vary":                             "Origin",
		"Strict-Transport-Security":        "max-age=63072000; includeSubDomains",
		"Server":                           "Apache/2.4.58 (Ubuntu)",
		"X-Powered-By":                     "PHP/8.3.1",
		"Set-Cookie":                       "PHPSESSID=9f8e7d6c5b4a; path=/",
		"ETag":                             `"abc123"`,
		"Content-Encoding":                 "identity",
	}, "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"))
	resp, body := do(t, http.MethodGet, url, nil, "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	problem(t, body)
	assert.Equal(t, "https://app.example.com", resp.Header.Get("Access-Control-Allow-Origin"))
	assert.Equal(t, "true", resp.Header.Get("Access-Control-Allow-Credentials"))
	assert.Equal(t, "X-Request-Id", resp.Header.Get("Access-Control-Expose-Headers"))
	assert.Equal(t, "Origin", resp.Header.Get("Vary"))
	assert.Equal(t, "max-age=63072000; includeSubDomains", resp.Header.Get("Strict-Transport-Security"))
	for _, h := range []string{"Server", "X-Powered-By", "Set-Cookie", "ETag", "Content-Encoding"} {
		assert.Empty(t, resp.Header.Values(h), "%s is not relayed", h)
	}
}

// "Headers on every error: Content-Type, Content-Length, X-Request-Id,
// Cache-Control: no-store, X-Content-Type-Options: nosniff, and Retry-After
// (whole seconds, rounded up) when there is a delay", under New().
func TestContractPageMiddlewareErrorHeaders(t *testing.T) {
	docpage.Says(t, "../docs/contract.md",
		"Headers on every error: `Content-Type`, `Content-Length`, `X-Request-Id`, `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`, and `Retry-After` (whole seconds, rounded up) when there is a delay.")
	url := serveDefault(t, Tool("reserve_stock", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeRateLimited, "Too many reservations this second.").
			WithRetryAfter(1500 * time.Millisecond)
	}))
	resp, body := do(t, http.MethodPost, url, nil, `{"sku":"A-1"}`)
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"), "problem+json by default")
	assert.Equal(t, strconv.Itoa(len(body)), resp.Header.Get("Content-Length"))
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "2", resp.Header.Get("Retry-After"), "1.5 s rounds up to 2")
	m := problem(t, body)
	assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
	assert.Equal(t, resp.Header.Get("X-Request-Id"), m["request_id"])
	assert.Equal(t, "1500", fmt.Sprint(m["retry_after_ms"]))
	assert.Equal(t, "reserve_stock", m["tool"])
}

// "WithRequestIDPolicy(p) | TrustIncoming (chi's id, else a valid
// X-Request-Id)" and "An id that is not 1–128 of [A-Za-z0-9._:/-] is
// replaced, never echoed."
func TestOptionsPageMiddlewareTrustsValidIncomingRequestID(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithRequestIDPolicy(p)` | `TrustIncoming` (chi's id, else a valid `X-Request-Id`);",
		"An id that is not 1–128 of `[A-Za-z0-9._:/-]` is replaced, never echoed.")
	url := serveDefault(t, rawHandler(http.StatusConflict, nil, "order 7 was changed"))
	resp, body := do(t, http.MethodGet, url, http.Header{"X-Request-Id": {"agent-run-42.step-3"}}, "")
	assert.Equal(t, "agent-run-42.step-3", resp.Header.Get("X-Request-Id"))
	assert.Equal(t, "agent-run-42.step-3", problem(t, body)["request_id"])

	resp, body = do(t, http.MethodGet, url, http.Header{"X-Request-Id": {`bad id "quoted"`}}, "")
	id := resp.Header.Get("X-Request-Id")
	assert.Regexp(t, `^[0-9a-f]{32}$`, id, "replaced by 16 random bytes in hex")
	assert.Equal(t, id, problem(t, body)["request_id"])
}

// "WithClassifier(c) | classify.New(registry) with the sanitizer as message
// filter" and the Stripe row of "Vendor translators" ("field param;
// decline_code, doc_url in details"): a handler that relays Stripe's
// decline under New() gives the agent the decline code and Stripe's link,
// with the secret in the message removed.
func TestOptionsPageMiddlewareCapturedStripeDeclineKeepsDetails(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithClassifier(c)` | `classify.New(registry)` with the sanitizer as message filter;")
	docpage.Says(t, "../docs/vendors.md",
		"| Stripe | `error.code`, else `error.type`; field `param`; `decline_code`, `doc_url` in details;")
	url := serveDefault(t, vendorHandler("stripe", rawHandler(http.StatusPaymentRequired, map[string]string{
		"Content-Type": "application/json",
		"Request-Id":   "req_8kQ2mZp4Lx7Wc1",
	}, `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","param":"source",`+
		`"message":"Your card has insufficient funds. (key sk_live_51HcZq8Kx2Lm9Pv3Wt7Ry4Nb6Df1Gh0Js5)",`+
		`"doc_url":"https://stripe.com/docs/error-codes/card-declined"}}`)))
	_, body := do(t, http.MethodPost, url, nil, "")
	m := problem(t, body)
	assert.Equal(t, toolerr.CodePaymentRequired, m["code"])
	assert.Equal(t, "source", m["field"])
	assert.Contains(t, m["detail"], "Your card has insufficient funds.")
	details, _ := m["details"].(map[string]any)
	assert.Equal(t, "insufficient_funds", details["decline_code"])
	assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", details["doc_url"])
	assert.NotContains(t, m, "docs_url", "the vendor's link is never our docs_url")
	up, _ := m["upstream"].(map[string]any)
	assert.Equal(t, "stripe", up["vendor"])
	assert.Equal(t, "card_declined", up["code"])
	assert.Equal(t, "req_8kQ2mZp4Lx7Wc1", up["request_id"])
	assert.NotContains(t, string(body), "sk_live_51HcZq8Kx2Lm9Pv3Wt7Ry4Nb6Df1Gh0Js5")
}

// "The middleware uses the same translators for raw error responses it
// captures": every vendor fixture, relayed by a handler under New() with
// no options, gives the fixture's code, category, retryability, field,
// vendor and details. A fixture captured without a host is relayed as is
// (the translators recognise it); one answering a vendor's host is relayed
// by a handler that names the vendor (toolerr.RecordVendor, "then the
// vendor the handler named"). A clock-dependent delay is not compared;
// generic formats are left out (see below).
func TestVendorsPageMiddlewareCapturedVendorFixtures(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"The middleware uses the same translators for raw error responses it captures.",
		"then the vendor the handler named (`toolerr.RecordVendor`)")
	docpage.Says(t, "../docs/classification.md",
		"**Attribution needs evidence.**")
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "vendors", "*", "*.json"))
	require.NoError(t, err)
	ran := 0
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		// A fresh spec per fixture: Unmarshal keeps members the file omits.
		var spec struct {
			Request struct {
				Method     string `json:"method"`
				Host       string `json:"host"`
				Idempotent bool   `json:"idempotent"`
			} `json:"request"`
			Now    string `json:"now"`
			Expect struct {
				Success      bool           `json:"success"`
				Code         string         `json:"code"`
				Category     string         `json:"category"`
				Retryable    bool           `json:"retryable"`
				RetryAfterMS int64          `json:"retry_after_ms"`
				Field        string         `json:"field"`
				Vendor       string         `json:"vendor"`
				Details      map[string]any `json:"details"`
			} `json:"expect"`
		}
		require.NoError(t, json.Unmarshal(raw, &spec))
		dir := filepath.Base(filepath.Dir(p))
		// Generic bodies the service writes are its own failure ("Attribution
		// needs evidence"), read by the local rows, not as a vendor's.
		if spec.Expect.Success || dir == "generic" || spec.Request.Host != "" && dir == "gateway" {
			continue
		}
		named := ""
		if spec.Request.Host != "" {
			named = spec.Expect.Vendor
		}
		ran++
		req, exp, now := spec.Request, spec.Expect, spec.Now
		t.Run(dir+"/"+strings.TrimSuffix(filepath.Base(p), ".json"), func(t *testing.T) {
			httpRaw, err := os.ReadFile(strings.TrimSuffix(p, ".json") + ".http")
			require.NoError(t, err)
			vresp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(httpRaw)), nil)
			require.NoError(t, err)
			vbody, err := io.ReadAll(vresp.Body)
			require.NoError(t, err)
			if vresp.StatusCode < 400 {
				// An error inside a 2xx body (Slack's ok:false, GraphQL
				// errors, S3's 200) is translate's to read (TestFixtures);
				// a handler that answers 2xx has succeeded.
				t.Skip("a handler's 2xx is its success")
			}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if named != "" {
					toolerr.RecordVendor(r.Context(), named)
				}
				for k, v := range vresp.Header {
					if k != "Content-Length" && k != "Transfer-Encoding" {
						w.Header()[k] = v
					}
				}
				if vresp.Header.Get("Content-Type") == "" {
					w.Header()["Content-Type"] = nil
				}
				w.WriteHeader(vresp.StatusCode)
				_, _ = w.Write(vbody)
			})
			method := req.Method
			if method == "" {
				method = http.MethodGet
			}
			var hdr http.Header
			if req.Idempotent {
				hdr = http.Header{"Idempotency-Key": {"k-" + filepath.Base(p)}}
			}
			_, body := do(t, method, serveDefault(t, h), hdr, "")
			m := problem(t, body)
			assert.Equal(t, exp.Code, m["code"], "code: %s", body)
			assert.Equal(t, exp.Category, m["category"], "category")
			assert.Equal(t, exp.Retryable, m["retryable"] == true, "retryable")
			assert.Equal(t, exp.Field, fmt.Sprint(orEmpty(m["field"])), "field")
			up, _ := m["upstream"].(map[string]any)
			require.NotNil(t, up, "upstream")
			assert.Equal(t, exp.Vendor, up["vendor"], "upstream vendor")
			if !capturedDelayDependsOnClock(t, now, req.Method, named, req.Idempotent, vresp, vbody) && exp.RetryAfterMS > 0 {
				assert.Equal(t, strconv.FormatInt(exp.RetryAfterMS, 10), fmt.Sprint(m["retry_after_ms"]), "retry_after_ms")
			}
			details, _ := m["details"].(map[string]any)
			for k, v := range exp.Details {
				if s, ok := v.(string); ok {
					v = sanitize.New().CleanText(s)
				}
				assert.Equal(t, fmt.Sprint(v), fmt.Sprint(details[k]), "details[%s]", k)
			}
		})
	}
	assert.Greater(t, ran, 150, "most fixtures run through the middleware")
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// capturedDelayDependsOnClock reports whether the fixture's delay changes
// with the clock (an HTTP date, an epoch reset).
func capturedDelayDependsOnClock(t *testing.T, now, method, vendor string, idem bool, resp *http.Response, body []byte) bool {
	t.Helper()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // the fixtures' default clock
	if now != "" {
		var err error
		at, err = time.Parse(time.RFC3339, now)
		require.NoError(t, err)
	}
	delay := func(at time.Time) time.Duration {
		set, err := translate.NewSet(classify.New(nil, classify.WithClock(func() time.Time { return at })))
		require.NoError(t, err)
		e := set.Classify(context.Background(), &translate.Raw{Method: method, Vendor: vendor, Idempotent: idem,
			Status: resp.StatusCode, Header: resp.Header, Body: body})
		if e == nil {
			return 0
		}
		return e.RetryAfter
	}
	return delay(at) != delay(at.AddDate(1, 0, 0))
}
