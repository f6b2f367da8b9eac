package stripe85_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stripe/stripe-go/v85"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestStripeV85LikeEveryMajor: stripe-go v85's errors, from a real client,
// are classified as the shared table says, with no mapper registered: no
// mapper module is built against v85.
func TestStripeV85LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "stripe", callV85)
}

// callV85 creates (POST) or retrieves (GET) a payment intent with a real
// stripe-go v85 client, its retries off.
func callV85(ctx context.Context, base string, hc *http.Client, method string) error {
	sc := stripe.NewClient("sk_test_toolerr", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
		URL:               stripe.String(strings.TrimSuffix(base, "/")),
		HTTPClient:        hc,
		MaxNetworkRetries: stripe.Int64(0),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	})))
	if method == http.MethodGet {
		_, err := sc.V1PaymentIntents.Retrieve(ctx, "pi_toolerr", nil)
		return err
	}
	_, err := sc.V1PaymentIntents.Create(ctx, &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(2000), Currency: stripe.String("usd")})
	return err
}
