package middleware_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// A ServeMux cannot list its patterns: give them with Routes, and a call
// to a mistyped tool path is told the route it most plausibly meant.
func ExampleWithToolRoutes() {
	searchOrders := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"orders":[]}`)
	})
	getOrder := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"`+r.PathValue("id")+`"}`)
	})

	mux := http.NewServeMux()
	mux.Handle("POST /tools/search_orders", searchOrders)
	mux.Handle("GET /orders/{id}", getOrder)
	handler := middleware.New(middleware.WithToolRoutes(middleware.Routes(
		"POST /tools/search_orders",
		"GET /orders/{id}",
	)))(mux)

	srv := httptest.NewServer(handler)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/tools/search_order", "application/json", strings.NewReader(`{}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	e, _ := toolerr.Parse(body)
	fmt.Println(resp.StatusCode, e.Code)
	fmt.Println(e.AllowedValues, e.SuggestedValue)
	// Output:
	// 404 TOOL_NOT_FOUND
	// [POST /tools/search_orders] POST /tools/search_orders
}

// Mounted in a chi router, the middleware finds its routes itself. The
// agent reads the nearest ones in the error's text, here two equally
// near: listed, neither suggested.
func ExampleChiRoutes() {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	r := chi.NewRouter()
	r.Use(middleware.New())
	r.Post("/tools/get_user", ok)
	r.Post("/tools/set_user", ok)
	r.Post("/tools/search_orders", ok)

	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/tools/xet_user", nil)
	req.Header.Set("X-Request-Id", "call-1")
	r.ServeHTTP(rec, req)

	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(e.Observation())

	// ChiRoutes lists a router's routes, to filter or to give another
	// middleware.
	fmt.Println(middleware.ChiRoutes(r)())
	// Output:
	// TOOL_NOT_FOUND (not_found)
	// retryable: false
	// allowed_values: ["POST /tools/get_user","POST /tools/set_user"]
	// hint: Do not call this path again. allowed_values lists the nearest routes (method and path): call the one that is the tool you intended; if none is, list the available tools.
	// request_id: call-1
	// [POST /tools/get_user POST /tools/search_orders POST /tools/set_user]
}
