package middleware_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/translate"
)

// fakeStripe serves one canned Stripe answer on a loopback server.
func fakeStripe(status int, body string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_9Xy7Zq2LmN")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
}

// callTool posts body to path on h and parses the error it answers with.
func callTool(h http.Handler, path, body string) (int, *toolerr.Error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	return rec.Code, e
}

// searchArgs are search_orders' arguments, for the README's quickstart.
type searchArgs struct {
	Query  string `json:"query"`
	Status string `json:"status,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// The README's quickstart: a chi router, the middleware, and a tool whose
// arguments are checked against its schema and which passes a vendor's
// error on. The agent's runtime asks for text and gets the observation.
func Example_quickstart() {
	vendor := fakeStripe(http.StatusOK, `{"data":[]}`)
	defer vendor.Close()
	stripe, stripeURL := vendor.Client(), vendor.URL

	schema, err := argcheck.Compile(`{
  "type": "object", "additionalProperties": false, "required": ["query"],
  "properties": {
    "query": {"type": "string", "minLength": 1},
    "status": {"enum": ["succeeded", "pending", "failed"]},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page; values above 100 are capped to 100."}
  }
}`)
	if err != nil {
		panic(err)
	}

	r := chi.NewRouter()
	r.Use(middleware.New()) // or middleware.New()(anyHandler)

	r.Post("/tools/search_orders", middleware.ToolFunc("search_orders",
		func(w http.ResponseWriter, r *http.Request) error {
			args, err := argcheck.Decode[searchArgs](r, schema)
			if err != nil {
				return err // VALIDATION_FAILED: every violation, its field and its repair
			}
			q := url.Values{"query": {args.Query}, "limit": {strconv.Itoa(args.Limit)}}
			req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, stripeURL+"/v1/charges/search?"+q.Encode(), nil)
			if err != nil {
				return err
			}
			resp, err := stripe.Do(req)
			if err != nil {
				return err // a timeout becomes UPSTREAM_TIMEOUT, a refused connection UPSTREAM_UNAVAILABLE
			}
			defer resp.Body.Close()
			if err := translate.Response(resp); err != nil {
				return err // Stripe's card_declined, a 429 with its delay, Cloudflare's 522 page…
			}
			w.Header().Set("Content-Type", "application/json")
			_, err = io.Copy(w, resp.Body)
			return err
		}))

	req := httptest.NewRequest(http.MethodPost, "/tools/search_orders",
		strings.NewReader(`{"query":"amount>500","status":"Failed","limit":500}`))
	req.Header.Set("Accept", "text/plain")
	req.Header.Set("X-Request-Id", "52fa54271747d42a88a022e7cdce7e81")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(rec.Body.String())
	// Output:
	// 400 text/plain; charset=utf-8
	// VALIDATION_FAILED (validation): 2 arguments are invalid.
	// retryable: false
	// field: /limit
	// violation: /limit must be between 1 and 100, allowed_values: {"maximum":100,"minimum":1}, suggested_value: 100
	// violation: /status must be one of allowed_values, allowed_values: ["succeeded","pending","failed"], suggested_value: "failed"
	// example_request: {"limit":100,"query":"amount>500","status":"failed"}
	// hint: Set limit between 1 and 100 (nearest: 100); set status to "failed". example_request applies every fix: send it if it still means what the user asked.
	// request_id: 52fa54271747d42a88a022e7cdce7e81
}

// The package documentation's refund tool: the vendor's decline reaches
// the agent classified, with the vendor named.
func Example_refund() {
	vendor := fakeStripe(http.StatusPaymentRequired,
		`{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds."}}`)
	defer vendor.Close()
	stripe, stripeURL := vendor.Client(), vendor.URL

	r := chi.NewRouter()
	r.Use(middleware.New())
	r.Post("/tools/refund", middleware.ToolFunc("refund", func(w http.ResponseWriter, r *http.Request) error {
		req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, stripeURL+"/v1/refunds", r.Body)
		if err != nil {
			return err
		}
		resp, err := stripe.Do(req)
		if err != nil {
			return err // a timeout becomes UPSTREAM_TIMEOUT, retryable when idempotent
		}
		defer resp.Body.Close()
		if err := translate.Response(resp); err != nil {
			return err // the vendor's error, classified
		}
		w.WriteHeader(http.StatusCreated)
		_, err = io.Copy(w, resp.Body)
		return err
	}))

	status, e := callTool(r, "/tools/refund", `{"charge":"ch_1","amount":500}`)
	fmt.Println(status, e.Code, e.Tool)
	fmt.Println(e.Upstream.Vendor, e.Upstream.Status, e.Upstream.Code)
	// Output:
	// 402 PAYMENT_REQUIRED refund
	// stripe 402 card_declined
}

// ToolFunc is the form chi's r.Post takes.
func ExampleToolFunc() {
	refund := func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeConflict, "Charge ch_1 was refunded already.")
	}
	r := chi.NewRouter()
	r.Use(middleware.New())
	r.Post("/tools/refund", middleware.ToolFunc("refund", refund))

	status, e := callTool(r, "/tools/refund", `{}`)
	fmt.Println(status, e.Code, e.Tool)
	// Output:
	// 409 CONFLICT refund
}

// TestToolBodyValidates is the README's advice for services' own tests:
// check what the tools render against the contract.
func TestToolBodyValidates(t *testing.T) {
	docpage.Says(t, "../README.md",
		"In tests, check whatever your tools render against the contract:",
		"require.NoError(t, toolerr.Validate(rec.Body.Bytes()))")
	h := middleware.New()(middleware.Tool("find_order", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "Order 42 does not exist.")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/find_order", nil))
	require.NoError(t, toolerr.Validate(rec.Body.Bytes()))
}
