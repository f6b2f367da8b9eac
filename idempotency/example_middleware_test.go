package idempotency_test

import (
	"context"
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
		req.Header.Set("Authorization", "Bearer agent-7-token") // keys are scoped by caller
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

// Keys are scoped by the caller that WithPrincipal names, here the tenant
// an authentication middleware put in the context. A keyed request with no
// principal is refused: two anonymous callers could otherwise replay each
// other's responses.
func ExampleWithPrincipal() {
	type tenantKey struct{}
	tenant := func(r *http.Request) string {
		t, _ := r.Context().Value(tenantKey{}).(string)
		return t // "" for an unauthenticated request
	}
	createLabel := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	})
	h := idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithPrincipal(tenant))(createLabel)

	for _, t := range []string{"acme", "globex", ""} {
		req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Oslo"}`))
		req = req.WithContext(context.WithValue(req.Context(), tenantKey{}, t))
		req.Header.Set("Idempotency-Key", "9f1c7e2a-label-oslo")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		fmt.Printf("%q: %d replayed: %v\n", t, rec.Code, rec.Header().Get("Idempotent-Replayed") == "true")
	}
	// Output:
	// "acme": 201 replayed: false
	// "globex": 201 replayed: false
	// "": 401 replayed: false
}
