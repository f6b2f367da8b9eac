package unmapped_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr/middleware/unmapped"
)

// requireOperator stands for the service's own authentication of its
// operators.
func requireOperator(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Operator-Token") != "let-me-in" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ExampleSampler offers an unmapped response, whose secrets the sample
// does not keep, and mounts the list of recent samples behind the
// service's own authentication.
func ExampleSampler() {
	samples := unmapped.New(unmapped.WithLogger(slog.New(slog.DiscardHandler)))

	sampled := samples.Offer(context.Background(), unmapped.Response{
		Vendor: "stripe", Status: 402, Code: "UPSTREAM_UNCLASSIFIED", VendorCode: "card_velocity_exceeded",
		Header: http.Header{"Request-Id": {"req_8f2c1a9b3d"}, "Set-Cookie": {"sid=secret"}},
		Body:   []byte(`{"error":{"message":"Too many attempts with key sk_live_4eC39HqLyjWDarjtT1zdp7dc"}}`),
	})
	fmt.Println("sampled:", sampled)

	mux := http.NewServeMux()
	mux.Handle("GET /debug/toolerr/unmapped", requireOperator(samples))

	req := httptest.NewRequest(http.MethodGet, "/debug/toolerr/unmapped", nil)
	req.Header.Set("X-Operator-Token", "let-me-in")
	req.Header.Set("Accept", "text/plain")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	s := samples.Samples()[0]
	fmt.Println(s.Vendor, s.Status, s.VendorCode, s.Header)
	fmt.Println(s.Body)
	// Output:
	// sampled: true
	// 200 text/plain; charset=utf-8
	// stripe 402 card_velocity_exceeded map[Request-Id:req_8f2c1a9b3d]
	// {"error":{"message":"Too many attempts with key [REDACTED:stripe-key]"}}
}
