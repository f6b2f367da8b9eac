package classify

import (
	"context"
	"net/http"
	"testing"

	"github.com/toolerr/toolerr"
)

func benchClassifier(b *testing.B) *Classifier {
	c := New(nil)
	if err := c.RegisterVendor("stripe", map[string]string{
		"resource_missing": toolerr.CodeNotFound, "card_declined": toolerr.CodePaymentRequired,
		"rate_limit": toolerr.CodeRateLimited, "lock_timeout": toolerr.CodeUpstreamUnavailable,
	}); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkDecideStatus classifies a bare status: it must not allocate.
func BenchmarkDecideStatus(b *testing.B) {
	c := benchClassifier(b)
	o := Outcome{Method: http.MethodGet, Status: http.StatusServiceUnavailable}
	b.ReportAllocs()
	for b.Loop() {
		if d := c.Decide(o); d.Code != toolerr.CodeUpstreamUnavailable {
			b.Fatal(d.Code)
		}
	}
}

// BenchmarkDecideVendorCode classifies a translated vendor error with headers.
func BenchmarkDecideVendorCode(b *testing.B) {
	c := benchClassifier(b)
	h := http.Header{}
	h.Set("Retry-After", "2")
	h.Set("Request-Id", "req_8fK2aa")
	o := Outcome{Method: http.MethodPost, Status: 429, Header: h, Vendor: "stripe", VendorCode: "rate_limit"}
	b.ReportAllocs()
	for b.Loop() {
		if d := c.Decide(o); d.Code != toolerr.CodeRateLimited {
			b.Fatal(d.Code)
		}
	}
}

// BenchmarkClassify includes building the *toolerr.Error.
func BenchmarkClassify(b *testing.B) {
	c := benchClassifier(b)
	ctx := context.Background()
	b.Run("status", func(b *testing.B) {
		o := Outcome{Method: http.MethodGet, Status: http.StatusServiceUnavailable}
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Classify(ctx, o)
		}
	})
	b.Run("vendor_code", func(b *testing.B) {
		o := Outcome{Method: http.MethodPost, Status: 402, Vendor: "stripe", VendorCode: "card_declined", RequestID: "req_8fK2aa"}
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Classify(ctx, o)
		}
	})
}
