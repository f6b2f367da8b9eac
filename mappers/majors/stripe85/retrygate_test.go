package stripe85_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85"

	"github.com/toolerr/toolerr/retrygate"
)

// TestRetrygateRetriesV85ByWhatItCarries: retrygate.Do, with no mapper
// registered, retries a stripe-go v85 lock_timeout (a 429 Stripe asks to
// retry) until the call succeeds, and does not repeat a card decline.
func TestRetrygateRetriesV85ByWhatItCarries(t *testing.T) {
	var hits atomic.Int32
	var declines atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_retry")
		switch {
		case declines.Load():
			w.WriteHeader(http.StatusPaymentRequired)
			_, _ = io.WriteString(w, `{"error":{"code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds.","type":"card_error"}}`)
		case n <= 2:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = io.WriteString(w, `{"error":{"code":"lock_timeout","message":"This object cannot be accessed right now because another API request or Stripe process is currently accessing it.","type":"invalid_request_error"}}`)
		default:
			_, _ = io.WriteString(w, `{"id":"pi_toolerr","object":"payment_intent","amount":2000,"currency":"usd","status":"requires_payment_method"}`)
		}
	}))
	defer srv.Close()
	sc := stripe.NewClient("sk_test_toolerr", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL:               stripe.String(srv.URL),
		HTTPClient:        srv.Client(),
		MaxNetworkRetries: stripe.Int64(0),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))

	p := retrygate.DefaultPolicy()
	p.NoBudget = true
	p.MaxServerDelay = time.Millisecond // Stripe's Retry-After, capped for the test
	ctx := context.Background()
	var intent *stripe.PaymentIntent
	err := retrygate.Do(ctx, p, func(ctx context.Context) error {
		pi, err := sc.V1PaymentIntents.Retrieve(ctx, "pi_toolerr", nil)
		intent = pi
		return err
	})
	if err != nil {
		t.Fatalf("lock_timeout twice, then success: %v", err)
	}
	if intent == nil || intent.ID != "pi_toolerr" || hits.Load() != 3 {
		t.Fatalf("intent %+v after %d attempts; want pi_toolerr after 3", intent, hits.Load())
	}

	declines.Store(true)
	hits.Store(0)
	err = retrygate.Do(ctx, p, func(ctx context.Context) error {
		_, err := sc.V1PaymentIntents.Create(ctx, &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(2000), Currency: stripe.String("usd")})
		return err
	})
	if err == nil || retrygate.Attempts(err) != 1 || hits.Load() != 1 {
		t.Fatalf("a decline: %v after %d attempts; want it after 1", err, hits.Load())
	}
}
