package leakprobe

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// The payment data the payment sink tests of the framework adapters plant,
// in the forms a vendor, an SDK or a careless handler writes them.
const (
	// Card is a test Visa, grouped as people type it.
	Card = "4242 4242 4242 4242"
	// IBAN is the registry's example for Germany.
	IBAN = "DE89370400440532013000"
	// SSN is a US social security number after its label.
	SSN = "SSN 078-05-1120"
	// PaymentText holds them all and a card security code.
	PaymentText = "card " + Card + ", iban " + IBAN + ", " + SSN + ", cvc: 123"
	// PaymentTextNoCode is PaymentText without the security code.
	PaymentTextNoCode = "card " + Card + ", iban " + IBAN + ", " + SSN
	// StripeDecline is a Stripe-shaped decline that echoes the card, as
	// text and as a JSON number, and the security code.
	StripeDecline = `{"error":{"type":"card_error","code":"card_declined","message":"Your card ` + Card +
		` was declined; iban ` + IBAN + `, ` + SSN + `, cvc: 123","card":4242424242424242,"cvc":123}}`
)

// PaymentMarks returns the fragments of the planted payment data that no
// sink may hold: the card, IBAN and SSN marks of [Probes] and the security
// code's forms. A new slice on each call.
func PaymentMarks() []string {
	var marks []string
	for _, p := range Probes() {
		if p.Name == "card" || p.Name == "iban" || p.Name == "ssn" {
			marks = append(marks, p.Marks...)
		}
	}
	return append(marks, "cvc: 123", `"cvc":123`, `"cvc": 123`, `cvc 123`)
}

// FindPayment returns the first of [PaymentMarks] that written holds, or "".
func FindPayment(written []byte) string {
	for _, m := range PaymentMarks() {
		if bytes.Contains(written, []byte(m)) {
			return m
		}
	}
	return ""
}

// Buffer is a log buffer that a server's goroutines write to while a test
// reads it. Its zero value is ready; it is safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Bytes returns a copy of what was written.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// HeaderText writes h one field a line ("Name: v1,v2"), in sorted order,
// for [FindPayment] to search.
func HeaderText(h http.Header) string {
	var s strings.Builder
	for _, k := range slices.Sorted(maps.Keys(h)) {
		s.WriteString(k + ": " + strings.Join(h[k], ",") + "\n")
	}
	return s.String()
}
