package stripeerr_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stripe/stripe-go/v82"

	"github.com/toolerr/toolerr/translate"
)

// BenchmarkReadSDKErrorStripe reads a real stripe-go error (a card
// decline, from a real client) by what it carries, and
// BenchmarkTranslateStripeResponse translates the response it kept: the
// difference is the cost of reading the error by field name.
func BenchmarkReadSDKErrorStripe(b *testing.B) {
	err := decline(b)
	s := translate.Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.ReadSDKError(err); !ok {
			b.Fatal("not read")
		}
	}
}

func BenchmarkTranslateStripeResponse(b *testing.B) {
	se, _ := errors.AsType[*stripe.Error](decline(b))
	resp := se.LastResponse
	s := translate.Default()
	b.ReportAllocs()
	for b.Loop() {
		r := &translate.Raw{Vendor: stripeVendor, Status: resp.StatusCode, Header: resp.Header, Body: resp.RawJSON}
		if _, ok := s.Translate(r); !ok {
			b.Fatal("not read")
		}
	}
}

const stripeVendor = "stripe"

// decline returns the error a real client returns for a documented
// insufficient-funds decline, wrapped as a handler wraps it.
func decline(b *testing.B) error {
	b.Helper()
	sc := replay(b)
	_, err := sc.V1PaymentIntents.Create(context.Background(), &stripe.PaymentIntentCreateParams{
		Amount: stripe.Int64(2000), Currency: stripe.String("usd"), Description: stripe.String("insufficient-funds"),
	})
	if err == nil {
		b.Fatal("no error")
	}
	return fmt.Errorf("charge: %w", err)
}
