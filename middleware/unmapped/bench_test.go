package unmapped

import (
	"context"
	"log/slog"
	"net/http"
	"testing"
)

// BenchmarkOfferSuppressed measures the common case of a flood: an offer
// of a pair sampled within the interval, which is counted and dropped. It
// must not allocate.
func BenchmarkOfferSuppressed(b *testing.B) {
	s := New(WithLogger(slog.New(slog.DiscardHandler)))
	in := Response{Vendor: "stripe", Status: 502, Code: "UPSTREAM_UNCLASSIFIED",
		Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html><title>502 Bad Gateway</title></html>")}
	ctx := context.Background()
	if !s.Offer(ctx, in) {
		b.Fatal("the first offer is sampled")
	}
	b.ReportAllocs()
	for b.Loop() {
		if s.Offer(ctx, in) {
			b.Fatal("a suppressed pair was sampled")
		}
	}
}

// BenchmarkOfferSuppressedParallel is BenchmarkOfferSuppressed from
// GOMAXPROCS goroutines, on one pair: the contention of the limiter's
// mutex.
func BenchmarkOfferSuppressedParallel(b *testing.B) {
	s := New(WithLogger(slog.New(slog.DiscardHandler)))
	in := Response{Vendor: "stripe", Status: 502}
	s.Offer(context.Background(), in)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.Offer(context.Background(), in)
		}
	})
}

// BenchmarkOfferSampled measures an offer that is sampled: sanitizing a
// 2 KiB body, its headers and names, keeping and logging the sample.
func BenchmarkOfferSampled(b *testing.B) {
	clock := newTestClock()
	s := New(WithLogger(slog.New(slog.DiscardHandler)), WithClock(clock.Now))
	body := make([]byte, 0, 2048)
	for len(body) < 2000 {
		body = append(body, `{"error":{"code":"weird_new_code","message":"the order could not be processed"}} `...)
	}
	in := Response{Vendor: "stripe", Status: 400, VendorCode: "weird_new_code", Code: "UPSTREAM_UNCLASSIFIED",
		Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_8f2c1a9b3d"}}, Body: body}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		clock.Advance(DefaultPairInterval)
		if !s.Offer(ctx, in) {
			b.Fatal("not sampled")
		}
	}
}

func TestOfferSuppressedDoesNotAllocate(t *testing.T) {
	s := New(WithLogger(slog.New(slog.DiscardHandler)))
	in := Response{Vendor: "stripe", Status: 502, Body: []byte("boom")}
	s.Offer(context.Background(), in)
	assert0 := testing.AllocsPerRun(1000, func() { s.Offer(context.Background(), in) })
	if assert0 != 0 {
		t.Fatalf("a suppressed offer allocates %v times", assert0)
	}
}
