package translate

// Promises of the vendor table of docs/vendors.md, one vendor row at a
// time, on translate.Response's defaults over a real HTTP round trip
// (callVendor, docs_promises_test.go), with the vendors' documented error
// bodies. Each test also checks that the page still says what it checks.

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
)

// "Stripe | error.code, else error.type; field param; decline_code, doc_url
// in details" and "its documentation link goes in details.doc_url, never in
// our docs_url".
func TestVendorsPageStripeCardDeclinedDetails(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| Stripe | `error.code`, else `error.type`; field `param`; `decline_code`, `doc_url` in details;",
		"its documentation link goes in `details.doc_url`, never in our `docs_url`.")
	e := translateCall(t, vendorCall{
		Method: http.MethodPost, Host: "api.stripe.com", Status: http.StatusPaymentRequired,
		Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_8kQ2mZp4Lx7Wc1"}},
		Body: `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds",` +
			`"param":"source","message":"Your card has insufficient funds.",` +
			`"doc_url":"https://stripe.com/docs/error-codes/card-declined"}}`,
	})
	assert.Equal(t, toolerr.CodePaymentRequired, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "source", e.Field)
	assert.Equal(t, "insufficient_funds", e.Details["decline_code"])
	assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", e.Details["doc_url"])
	assert.Empty(t, e.DocsURL)
	assert.Contains(t, e.Detail, "Your card has insufficient funds.")
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "stripe", e.Upstream.Vendor)
	assert.Equal(t, "card_declined", e.Upstream.Code)
	assert.Equal(t, 402, e.Upstream.Status)
	assert.Equal(t, "req_8kQ2mZp4Lx7Wc1", e.Upstream.RequestID)
}

// "Stripe | error.code, else error.type": a card_error without a code is
// read by its type.
func TestVendorsPageStripeTypeWithoutCode(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| Stripe | `error.code`, else `error.type`;")
	e := translateCall(t, vendorCall{
		Method: http.MethodPost, Host: "api.stripe.com", Status: http.StatusPaymentRequired,
		Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_3Jd8sKq0PzX2vn"}},
		Body:   `{"error":{"type":"card_error","message":"Your card was declined."}}`,
	})
	assert.Equal(t, toolerr.CodePaymentRequired, e.Code)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "card_error", e.Upstream.Code)
}

// "Stripe | retryable: rate_limit, lock_timeout, idempotency_key_in_use,
// processing_error; api_error only when idempotent or
// Stripe-Should-Retry: true".
func TestVendorsPageStripeRetryable(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| `rate_limit`, `lock_timeout`, `idempotency_key_in_use`, `processing_error`; declines `try_again_later`, `approve_with_id`, `issuer_not_available`, `reenter_transaction`; `api_error` only when idempotent or `Stripe-Should-Retry: true` |")
	stripe := func(method, key string, status int, body string, extra ...string) vendorCall {
		h := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_Wb4nR7tY2uQ9sx"}}
		for i := 0; i+1 < len(extra); i += 2 {
			h.Set(extra[i], extra[i+1])
		}
		return vendorCall{Method: method, Host: "api.stripe.com", IdemKey: key, Status: status, Header: h, Body: body}
	}
	for _, tc := range []struct {
		name      string
		call      vendorCall
		retryable bool
	}{
		{"rate_limit", stripe("POST", "", 429, `{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many requests hit the API too quickly."}}`), true},
		{"lock_timeout", stripe("POST", "", 429, `{"error":{"type":"invalid_request_error","code":"lock_timeout","message":"This object cannot be accessed right now because another API request or Stripe process is currently accessing it."}}`), true},
		{"idempotency_key_in_use", stripe("POST", "k1", 409, `{"error":{"type":"idempotency_error","code":"idempotency_key_in_use","message":"There is currently another in-progress request using this Idempotent Key."}}`), true},
		{"processing_error", stripe("POST", "", 402, `{"error":{"type":"card_error","code":"processing_error","message":"An error occurred while processing your card. Try again in a little bit."}}`), true},
		{"api_error POST", stripe("POST", "", 500, `{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`), false},
		{"api_error POST keyed", stripe("POST", "k2", 500, `{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`), true},
		{"api_error GET", stripe("GET", "", 500, `{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`), true},
		{"api_error Stripe-Should-Retry", stripe("POST", "", 500, `{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`, "Stripe-Should-Retry", "true"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := translateCall(t, tc.call)
			assert.Equal(t, tc.retryable, e.Retryable, "%s: %s", e.Code, e.Detail)
			require.NotNil(t, e.Upstream)
			assert.Equal(t, "stripe", e.Upstream.Vendor)
		})
	}
}

// "Twilio | JSON code …; more_info in details.doc_url"; "20429 (1 s)".
func TestVendorsPageTwilioMoreInfoAndDelay(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| Twilio | JSON `code` or XML `<RestException><Code>`; `more_info` in `details.doc_url` | 20429 (1 s); 20503 |")
	e := translateCall(t, vendorCall{
		Method: http.MethodPost, Host: "api.twilio.com", Status: http.StatusTooManyRequests,
		Header: http.Header{"Content-Type": {"application/json"}, "Twilio-Request-Id": {"RQ3f5e1d2c4b6a8f0e1d2c3b4a5f6e7d8c"}},
		Body:   `{"code":20429,"message":"Too Many Requests","more_info":"https://www.twilio.com/docs/errors/20429","status":429}`,
	})
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, time.Second, e.RetryAfter)
	assert.Equal(t, "https://www.twilio.com/docs/errors/20429", e.Details["doc_url"])
	assert.Empty(t, e.DocsURL)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "twilio", e.Upstream.Vendor)
	assert.Equal(t, "20429", e.Upstream.Code)
}

// "PayPal | details[0].issue, else name; field details[0].field; debug_id".
func TestVendorsPagePayPalIssueFieldDebugID(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| PayPal | `details[0].issue`, else `name`; field `details[0].field`; `debug_id` |")
	e := translateCall(t, vendorCall{
		Method: http.MethodPost, Host: "api-m.paypal.com", Status: http.StatusUnprocessableEntity,
		Header: http.Header{"Content-Type": {"application/json"}, "Paypal-Debug-Id": {"b1e2c3d4a5f60"}},
		Body: `{"name":"UNPROCESSABLE_ENTITY","details":[{"field":"/purchase_units/0/amount/value",` +
			`"value":"10.999","issue":"DECIMAL_PRECISION","description":"If the currency supports decimals, only two decimal place precision is supported."}],` +
			`"message":"The requested action could not be performed, semantically incorrect, or failed business validation.",` +
			`"debug_id":"b1e2c3d4a5f60","links":[{"href":"https://developer.paypal.com/api/rest/reference/orders/v2/errors/#DECIMAL_PRECISION","rel":"information_link","method":"GET"}]}`,
	})
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "/purchase_units/0/amount/value", e.Field)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "paypal", e.Upstream.Vendor)
	assert.Equal(t, "DECIMAL_PRECISION", e.Upstream.Code)
	assert.Equal(t, "b1e2c3d4a5f60", e.Upstream.RequestID, "debug_id is PayPal's request id")
	assert.Empty(t, e.DocsURL)
}

// "Microsoft Graph | innermost innerError code in the table, else
// error.code; request id from innerError"; "TooManyRequests (Retry-After)".
func TestVendorsPageGraphInnerErrorRequestID(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"| Microsoft Graph | innermost `innerError` code in the table, else `error.code`; request id from `innerError` | `TooManyRequests`, `activityLimitReached` (`Retry-After`);")
	e := translateCall(t, vendorCall{
		Method: http.MethodGet, Host: "graph.microsoft.com", Status: http.StatusTooManyRequests,
		Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"12"}},
		Body: `{"error":{"code":"TooManyRequests","message":"Too many requests.","innerError":{` +
			`"date":"2026-11-25T05:00:00","request-id":"94fb3b52-452a-4535-a601-69e0a90e3aa2",` +
			`"client-request-id":"94fb3b52-452a-4535-a601-69e0a90e3aa2"}}}`,
	})
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, 12*time.Second, e.RetryAfter)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "msgraph", e.Upstream.Vendor)
	assert.Equal(t, "94fb3b52-452a-4535-a601-69e0a90e3aa2", e.Upstream.RequestID)
}

// "Errors that arrive with a 2xx status (Slack ok:false, Shopify GraphQL
// THROTTLED, an S3 <Error> on a 200, GraphQL errors without data) are
// errors."
func TestVendorsPageErrorsOn2xx(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"Errors that arrive with a 2xx status (Slack `ok:false`, Shopify GraphQL `THROTTLED`, an S3 `<Error>` on a 200, GraphQL errors without data) are errors.")
	for _, tc := range []struct {
		name, vendor, code string
		call               vendorCall
	}{
		{"slack ok:false", "slack", toolerr.CodeNotFound, vendorCall{Method: "POST", Host: "slack.com", Status: 200,
			Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			Body:   `{"ok":false,"error":"channel_not_found"}`}},
		{"shopify THROTTLED", "shopify", toolerr.CodeRateLimited, vendorCall{Method: "POST", Host: "acme.myshopify.com", Status: 200,
			Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			Body: `{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED","documentation":"https://shopify.dev/api/usage/rate-limits"}}],` +
				`"extensions":{"cost":{"requestedQueryCost":101,"actualQueryCost":null,"throttleStatus":{"maximumAvailable":1000.0,"currentlyAvailable":51,"restoreRate":50.0}}}}`}},
		{"S3 Error on 200", "aws", toolerr.CodeUpstreamUnavailable, vendorCall{Method: "PUT", Host: "my-bucket.s3.us-east-1.amazonaws.com", Status: 200,
			Header: http.Header{"Content-Type": {"application/xml"}, "X-Amz-Request-Id": {"4442587FB7D0A2F9"}},
			Body: `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message>` +
				`<RequestId>4442587FB7D0A2F9</RequestId><HostId>abc</HostId></Error>`}},
		{"GraphQL errors without data", "", "", vendorCall{Method: "POST", Status: 200,
			Header: http.Header{"Content-Type": {"application/json"}},
			Body:   `{"errors":[{"message":"Cannot query field \"nmae\" on type \"User\".","locations":[{"line":1,"column":9}]}]}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := translateCall(t, tc.call)
			if tc.code != "" {
				assert.Equal(t, tc.code, e.Code)
			}
			require.NotNil(t, e.Upstream)
			if tc.vendor != "" {
				assert.Equal(t, tc.vendor, e.Upstream.Vendor)
			}
			assert.Equal(t, 200, e.Upstream.Status)
		})
	}
}

// "Shopify | GraphQL THROTTLED on a 200, delay from the throttle status:
// (requested − available) / restore rate": (101 − 51) / 50 = 1 s.
func TestVendorsPageShopifyThrottleDelay(t *testing.T) {
	docpage.Says(t, "../docs/vendors.md",
		"GraphQL `THROTTLED` on a 200, delay from the throttle status: (requested − available) / restore rate")
	e := translateCall(t, vendorCall{Method: "POST", Host: "acme.myshopify.com", Status: 200,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body: `{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED"}}],` +
			`"extensions":{"cost":{"requestedQueryCost":101,"actualQueryCost":null,"throttleStatus":{"maximumAvailable":1000.0,"currentlyAvailable":51,"restoreRate":50.0}}}}`})
	assert.True(t, e.Retryable)
	assert.Equal(t, time.Second, e.RetryAfter)
}
