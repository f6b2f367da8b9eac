package argcheck_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/middleware"
)

// searchSchema is the input schema of a search_orders tool.
const searchSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["customer_id"],
  "properties": {
    "customer_id": {"type": "string"},
    "status": {"enum": ["open", "shipped", "cancelled"]},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Results per page; values above 100 are capped to 100."}
  }
}`

// SearchArgs are search_orders' arguments.
type SearchArgs struct {
	CustomerID string `json:"customer_id"`
	Status     string `json:"status,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// A schema checks decoded arguments and reports every violation with its
// repair.
func ExampleSchema_CheckJSON() {
	schema, err := argcheck.Compile([]byte(searchSchema))
	if err != nil {
		panic(err)
	}
	err = schema.CheckJSON([]byte(`{"customer_id":"c_42","status":"Shipped","limit":500}`))
	e, _ := toolerr.From(err)
	fmt.Println(e.WithRequestID("req_1").Observation())
	// Output:
	// VALIDATION_FAILED (validation): 2 arguments are invalid.
	// retryable: false
	// field: /limit
	// violation: /limit must be between 1 and 100, allowed_values: {"maximum":100,"minimum":1}, suggested_value: 100
	// violation: /status must be one of allowed_values, allowed_values: ["open","shipped","cancelled"], suggested_value: "shipped"
	// example_request: {"customer_id":"c_42","limit":100,"status":"shipped"}
	// hint: Set limit between 1 and 100 (nearest: 100); set status to "shipped". example_request applies every fix: send it if it still means what the user asked.
	// request_id: req_1
}

// The schema's middleware checks a tool's body before the handler runs;
// the toolerr middleware completes the error with the request's ids.
func ExampleSchema_Middleware() {
	schema, err := argcheck.Compile([]byte(searchSchema))
	if err != nil {
		panic(err)
	}
	search := func(w http.ResponseWriter, r *http.Request) error {
		_, err := w.Write([]byte(`{"orders":[]}`))
		return err
	}
	r := chi.NewRouter()
	r.Use(middleware.New())
	r.Post("/tools/search_orders", middleware.ToolFunc("search_orders", search, schema.Middleware))

	req := httptest.NewRequest(http.MethodPost, "/tools/search_orders", strings.NewReader(`{"customer_id":"c_42","limt":5}`))
	req.Header.Set("Accept", "text/plain")
	req.Header.Set("X-Request-Id", "req_2")
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	fmt.Println(rec.Code)
	fmt.Println(rec.Body.String())
	// Output:
	// 400
	// VALIDATION_FAILED (validation): limt is not a property of this tool.
	// retryable: false
	// field: /limt
	// allowed_values: ["customer_id","limit","status"]
	// suggested_value: "limit"
	// example_request: {"customer_id":"c_42","limit":5}
	// hint: Rename limt to limit. example_request applies every fix: send it if it still means what the user asked.
	// request_id: req_2
}

// Decode is the one call a handler makes for its arguments.
func ExampleDecode() {
	schema, err := argcheck.For[SearchArgs]()
	if err != nil {
		panic(err)
	}
	handler := func(w http.ResponseWriter, r *http.Request) error {
		args, err := argcheck.Decode[SearchArgs](r, schema)
		if err != nil {
			return err // VALIDATION_FAILED, with every violation and its repair
		}
		_, err = fmt.Fprintf(w, "orders of %s", args.CustomerID)
		return err
	}
	tool := middleware.Tool("search_orders", handler)
	for _, body := range []string{`{"customer_id":"c_42"}`, `{"customerId":"c_42"}`} {
		rec := httptest.NewRecorder()
		tool.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/search_orders", strings.NewReader(body)))
		e, err := toolerr.Parse(rec.Body.Bytes())
		if err != nil {
			fmt.Println(rec.Code, rec.Body.String())
			continue
		}
		fmt.Println(rec.Code, e.Code, e.Field, e.SuggestedValue, e.ExampleRequest)
	}
	// Output:
	// 200 orders of c_42
	// 400 VALIDATION_FAILED /customerId customer_id map[customer_id:c_42]
}

// NearestNames lists the tools an agent's call most plausibly meant, and
// suggests one only when a single one is that close.
func ExampleNearestNames() {
	tools := []string{"search_orders", "search_customers", "refund_order", "cancel_order"}

	near, suggested := argcheck.NearestNames("search_order", tools, 3)
	fmt.Printf("%q %q\n", near, suggested)

	near, suggested = argcheck.NearestNames("order_search", tools, 3)
	fmt.Printf("%q %q\n", near, suggested)

	near, suggested = argcheck.NearestNames("weather", tools, 3)
	fmt.Printf("%q %q\n", near, suggested)
	// Output:
	// ["search_orders"] "search_orders"
	// ["search_orders"] ""
	// [] ""
}
