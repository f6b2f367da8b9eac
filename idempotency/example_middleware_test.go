package idempotency_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolerr/toolerr/idempotency"
)

// An agent retries create_shipment_label with the same key: it gets the
// first label back, and the label is paid for once.
func ExampleMiddleware() {
	labels := 0
	createLabel := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		labels++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"label":"lbl-%d"}`, labels)
	})
	h := idempotency.Middleware(idempotency.NewMemoryStore())(createLabel)

	for range 2 {
		req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Oslo","kg":2}`))
		req.Header.Set("Idempotency-Key", "9f1c7e2a-label-oslo")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		fmt.Println(rec.Code, string(body), "replayed:", rec.Header().Get("Idempotent-Replayed") == "true")
	}
	fmt.Println("labels paid for:", labels)
	// Output:
	// 201 {"label":"lbl-1"} replayed: false
	// 201 {"label":"lbl-1"} replayed: true
	// labels paid for: 1
}
