package middleware_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// A handler relays a vendor's HTML error page; the agent gets a classified,
// sanitized error instead.
func ExampleNew() {
	relay := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><hr><center>nginx/1.25.3</center></body></html>")
	})
	quiet := slog.New(slog.DiscardHandler)
	h := middleware.New(middleware.WithLogger(quiet))(relay)

	req := httptest.NewRequest("POST", "/tools/track_shipment", nil)
	req.Header.Set("X-Request-Id", "call-1")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(e.Code, e.Retryable)
	fmt.Println(e.Detail)
	fmt.Println(e.RequestID)
	// Output:
	// 503 application/problem+json
	// UPSTREAM_UNAVAILABLE true
	// 502 Bad Gateway
	// call-1
}

// A tool handler returns its errors; the middleware renders them.
func ExampleTool() {
	refund := middleware.Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().
			New(toolerr.CodeValidationFailed, "amount exceeds the refundable balance of 1200.").
			WithField("amount").
			WithSuggestedValue(1200).
			WithHint("Refund 1200 or less.")
	})
	quiet := slog.New(slog.DiscardHandler)
	h := middleware.New(middleware.WithLogger(quiet))(refund)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/tools/refund", nil))

	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Tool)
	fmt.Println(e.Field, e.SuggestedValue, e.Hint)
	// Output:
	// 400 VALIDATION_FAILED refund
	// amount 1200 Refund 1200 or less.
}

// A handler records how far it got; if the request is cancelled or times
// out, the agent learns the operation may already be in progress.
func ExampleTool_intent() {
	create := middleware.Tool("create_invoice", func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		toolerr.RecordIntent(ctx, "create_invoice", "inv-123", "submitted to billing",
			"GET /invoices/inv-123 before creating it again")
		<-ctx.Done() // billing is slow; the caller gives up
		return ctx.Err()
	})
	quiet := slog.New(slog.DiscardHandler)
	h := middleware.New(middleware.WithLogger(quiet))(create)

	req := httptest.NewRequest("POST", "/tools/create_invoice", nil)
	ctx, cancel := context.WithCancel(req.Context())
	cancel()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req.WithContext(ctx))

	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(e.Code, e.Intent.State)
	fmt.Println(e.Intent.Recovery)
	// Output:
	// CANCELLED submitted to billing
	// GET /invoices/inv-123 before creating it again
}

// Go's ServeMux: wrap the mux, so the middleware sees its 404 and 405 too.
func ExampleNew_serveMux() {
	mux := http.NewServeMux()
	mux.Handle("GET /orders/{id}", middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeNotFound, "Order "+r.PathValue("id")+" does not exist.")
	}))
	handler := middleware.New()(mux)

	for _, req := range []*http.Request{
		httptest.NewRequest("GET", "/orders/7", nil),
		httptest.NewRequest("DELETE", "/orders/7", nil),
	} {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		e, _ := toolerr.Parse(rec.Body.Bytes())
		fmt.Printf("%d %s tool=%q allow=%q\n", rec.Code, e.Code, e.Tool, rec.Header().Get("Allow"))
	}
	// Output:
	// 404 NOT_FOUND tool="get_order" allow=""
	// 405 METHOD_NOT_ALLOWED tool="" allow="GET, HEAD"
}
