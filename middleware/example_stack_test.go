package middleware_test

import (
	"encoding/json"
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

// The README's quickstart: a chi router, the middleware, and a tool that
// returns a validation error or passes a vendor's error on.
func Example_quickstart() {
	reg := toolerr.NewRegistry(toolerr.Default())
	vendor := fakeStripe(http.StatusOK, `{"data":[]}`)
	defer vendor.Close()
	stripe, stripeURL := vendor.Client(), vendor.URL

	r := chi.NewRouter()
	r.Use(middleware.New()) // or middleware.New()(anyHandler)

	r.Post("/tools/search_orders", middleware.ToolFunc("search_orders",
		func(w http.ResponseWriter, r *http.Request) error {
			var args struct {
				Query string `json:"query"`
				Limit int    `json:"limit"`
			}
			if err := json.NewDecoder(r.Body).Decode(&args); err != nil {
				return reg.New(toolerr.CodeValidationFailed, "The arguments are not a JSON object.")
			}
			if args.Limit > 100 {
				return reg.New(toolerr.CodeValidationFailed, "limit must be between 1 and 100; got 500.").
					WithField("limit").
					WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
					WithSuggestedValue(100).
					WithHint("Reduce limit to 100 or less and page with the returned cursor.")
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

	status, e := callTool(r, "/tools/search_orders", `{"query":"status:'failed'","limit":500}`)
	fmt.Println(status, e.Code, e.Field, e.SuggestedValue, e.Tool)
	// Output:
	// 400 VALIDATION_FAILED limit 100 search_orders
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
	h := middleware.New()(middleware.Tool("find_order", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "Order 42 does not exist.")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/find_order", nil))
	require.NoError(t, toolerr.Validate(rec.Body.Bytes()))
}
