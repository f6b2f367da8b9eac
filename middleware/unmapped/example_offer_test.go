package unmapped_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr/middleware/unmapped"
)

// ExampleSampler_Offer offers a vendor's response that no mapping
// explained, as a handler or the middleware would after classifying it.
func ExampleSampler_Offer() {
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_8f2c1a9b3d")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = io.WriteString(w, `{"error":{"code":"card_velocity_exceeded","message":"Card 4242 4242 4242 4242 was used too often"}}`)
	}))
	defer vendor.Close()
	ctx := context.Background()
	logger := slog.New(slog.DiscardHandler) // the service's logger
	resp, err := http.Get(vendor.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		fmt.Println(err)
		return
	}

	samples := unmapped.New(unmapped.WithLogger(logger))
	sampled := samples.Offer(ctx, unmapped.Response{
		Vendor: "stripe", Status: 402, Code: "UPSTREAM_UNCLASSIFIED", VendorCode: "card_velocity_exceeded",
		Header: resp.Header, Body: body,
	})
	fmt.Println(sampled)
	s := samples.Samples()[0]
	fmt.Println(s.Header["Request-Id"], s.BodyBytes)
	fmt.Println(s.Body)
	// Output:
	// true
	// req_8f2c1a9b3d 99
	// {"error":{"code":"card_velocity_exceeded","message":"Card [card ending 4242] was used too often"}}
}
