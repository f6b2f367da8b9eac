package leakprobe

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestFindPaymentSeesEveryPlantedForm: the planted payment text and the
// Stripe decline hold marks FindPayment sees; their masked forms do not.
func TestFindPaymentSeesEveryPlantedForm(t *testing.T) {
	for _, planted := range []string{PaymentText, PaymentTextNoCode, StripeDecline, Card, IBAN, SSN,
		"4242424242424242", `{"cvc":123}`, `{"cvc": 123}`} {
		if FindPayment([]byte("x "+planted+" y")) == "" {
			t.Errorf("FindPayment misses %q", planted)
		}
	}
	masked := "card [card ending 4242], iban [IBAN DE…3000], SSN [REDACTED:ssn], cvc: [REDACTED:card-security-code]"
	if m := FindPayment([]byte(masked)); m != "" {
		t.Errorf("FindPayment(%q) = %q; want nothing", masked, m)
	}
}

// TestBufferIsSafeForConcurrentWrites: what goroutines write all arrives.
func TestBufferIsSafeForConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				_, _ = b.Write([]byte("x"))
			}
		})
	}
	wg.Wait()
	if got := string(b.Bytes()); got != strings.Repeat("x", 800) {
		t.Errorf("Bytes() has %d bytes; want 800", len(got))
	}
}

// TestHeaderText: every field and value, one field a line, sorted.
func TestHeaderText(t *testing.T) {
	got := HeaderText(http.Header{"X-B": {"2"}, "X-A": {"1", Card}})
	if want := "X-A: 1," + Card + "\nX-B: 2\n"; got != want {
		t.Errorf("HeaderText() = %q; want %q", got, want)
	}
}
