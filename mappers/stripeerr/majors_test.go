package stripeerr_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stripe/stripe-go/v82"

	"github.com/toolerr/toolerr/internal/sdkmajors"
	"github.com/toolerr/toolerr/mappers/stripeerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestStripeV82LikeEveryMajor: stripe-go v82's errors, from a real client,
// are classified as the shared table says, as every other major's are
// (mappers/majors/stripe85), with the mapper registered or not.
func TestStripeV82LikeEveryMajor(t *testing.T) {
	t.Run("no-mapper", func(t *testing.T) { sdkmajors.Run(t, stripeerr.Vendor, callV82) })
	t.Run("mapper", func(t *testing.T) {
		sdkmajors.Run(t, stripeerr.Vendor, callV82, middleware.WithErrorMappers(stripeerr.Mapper()))
	})
}

// callV82 creates (POST) or retrieves (GET) a payment intent with a real
// stripe-go v82 client, its retries off.
func callV82(ctx context.Context, base string, hc *http.Client, method string) error {
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
