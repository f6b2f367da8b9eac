package stripeerr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/stripe/stripe-go/v82"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/stripeerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose Stripe call failed returns the SDK's error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	stripeAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", "req_42")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = w.Write([]byte(`{"error": {"code": "card_declined", "decline_code": "insufficient_funds",
			"message": "Your card has insufficient funds.", "type": "card_error"}}`))
	}))
	defer stripeAPI.Close()
	sc := stripe.NewClient("sk_test_example", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL: stripe.String(stripeAPI.URL), MaxNetworkRetries: stripe.Int64(0),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))

	h := middleware.New(middleware.WithErrorMappers(stripeerr.Mapper()))
	tool := middleware.Tool("charge", func(_ http.ResponseWriter, r *http.Request) error {
		_, err := sc.V1PaymentIntents.Create(r.Context(), &stripe.PaymentIntentCreateParams{
			Amount: stripe.Int64(2000), Currency: stripe.String("usd"), Confirm: stripe.Bool(true),
		})
		return fmt.Errorf("charge: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/charge", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Retryable, e.Upstream.Vendor, e.Upstream.Code, e.Details["decline_code"])
	// Output: 402 PAYMENT_REQUIRED false stripe card_declined insufficient_funds
}
