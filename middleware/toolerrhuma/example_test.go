package toolerrhuma_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/go-chi/chi/v5"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// ListInput is a tool's arguments, as huma declares them.
type ListInput struct {
	Body struct {
		Status string `json:"status" enum:"open,shipped"`
		Limit  int    `json:"limit" minimum:"1" maximum:"100" doc:"How many orders; more than 100 are capped to 100"`
	}
}

// ListOutput is the tool's result.
type ListOutput struct {
	Body struct {
		Orders []string `json:"orders"`
	}
}

// The router keeps the toolerr middleware, as for chi or ServeMux; one line
// installs toolerr as huma's error model. huma's 422 becomes
// VALIDATION_FAILED whose violations carry the repairs the operation's
// schema gives, and the tool is the operation id.
func ExampleInstall() {
	op := huma.Operation{OperationID: "list_orders", Method: http.MethodPost, Path: "/tools/list_orders"}
	handler := func(_ context.Context, in *ListInput) (*ListOutput, error) {
		return &ListOutput{}, nil
	}

	router := chi.NewMux()
	router.Use(middleware.New())
	api := toolerrhuma.Install(humachi.New(router, huma.DefaultConfig("Orders", "1.0.0")))
	huma.Register(api, op, handler)

	srv := httptest.NewServer(router)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/tools/list_orders", "application/json",
		strings.NewReader(`{"status":"Shipped","limit":500}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var e toolerr.Error
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, e.Code, e.Tool)
	for _, v := range e.Violations {
		fmt.Printf("%s: %s (suggested %v)\n", v.Field, v.Reason, v.SuggestedValue)
	}
	example, _ := json.Marshal(e.ExampleRequest)
	fmt.Println(string(example))
	// Output:
	// 400 VALIDATION_FAILED list_orders
	// /limit: must be between 1 and 100 (suggested 100)
	// /status: must be one of allowed_values (suggested shipped)
	// {"limit":100,"status":"shipped"}
}

// A handler returns a *toolerr.Error, or one of huma's own errors: either
// keeps its code and the code's status. Without the toolerr middleware,
// huma renders the error itself, sanitized, as application/problem+json.
func ExampleInstall_withoutMiddleware() {
	mux := http.NewServeMux()
	api := toolerrhuma.Install(humago.New(mux, huma.DefaultConfig("Orders", "1.0.0")))

	huma.Register(api, huma.Operation{OperationID: "get_order", Method: http.MethodGet, Path: "/tools/get_order/{id}"},
		func(_ context.Context, in *struct {
			ID string `path:"id"`
		}) (*ListOutput, error) {
			if in.ID == "locked" {
				return nil, toolerr.Default().New(toolerr.CodeConflict, "The order is being updated.")
			}
			return nil, huma.Error404NotFound("no order " + in.ID + " in orders-db.prod.internal")
		})

	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, id := range []string{"locked", "o-9"} {
		resp, err := http.Get(srv.URL + "/tools/get_order/" + id)
		if err != nil {
			fmt.Println(err)
			return
		}
		var e toolerr.Error
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), e.Code, e.Tool, e.Detail)
	}
	// Output:
	// 409 application/problem+json CONFLICT get_order The order is being updated.
	// 404 application/problem+json NOT_FOUND get_order no order o-9 in [internal-host]
}

// Each operation of huma's OpenAPI document lists the codes its errors can
// carry in x-agent-error-codes: the ones of the statuses it declares, and
// the ones toolerr adds.
func ExampleInstall_openAPI() {
	mux := http.NewServeMux()
	api := toolerrhuma.Install(humago.New(mux, huma.DefaultConfig("Orders", "1.0.0")))
	huma.Register(api, huma.Operation{OperationID: "list_orders", Method: http.MethodPost, Path: "/tools/list_orders",
		Errors: []int{http.StatusTooManyRequests}},
		func(_ context.Context, in *ListInput) (*ListOutput, error) { return &ListOutput{}, nil })

	op := api.OpenAPI().Paths["/tools/list_orders"].Post
	for _, c := range op.Extensions[errdocs.OpenAPICodesExtension].([]errdocs.AgentErrorCode) {
		fmt.Println(c.Code, c.Status, c.Category, c.Retryable)
	}
	// Output:
	// INTERNAL_ERROR 500 internal false
	// PAYLOAD_TOO_LARGE 413 validation false
	// RATE_LIMITED 429 rate_limit true
	// VALIDATION_FAILED 400 validation false
}

// humago's ServeMux cannot list its patterns: Routes gives the API's
// operations, and a call to a mistyped path is told the operation it most
// plausibly meant.
func ExampleRoutes() {
	op := huma.Operation{OperationID: "list_orders", Method: http.MethodPost, Path: "/tools/list_orders"}
	list := func(_ context.Context, in *ListInput) (*ListOutput, error) {
		return &ListOutput{}, nil
	}

	mux := http.NewServeMux()
	api := toolerrhuma.Install(humago.New(mux, huma.DefaultConfig("Orders", "1.0.0")))
	handler := middleware.New(middleware.WithToolRoutes(toolerrhuma.Routes(api)))(mux)
	huma.Register(api, op, list)

	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/list_order", strings.NewReader(`{}`)))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.SuggestedValue)
	// Output:
	// 404 TOOL_NOT_FOUND POST /tools/list_orders
}
