package idempotency

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkMemoryClaimComplete claims and completes distinct keys from
// parallel goroutines: the work of every first execution.
func BenchmarkMemoryClaimComplete(b *testing.B) {
	s := NewMemoryStore()
	ctx := context.Background()
	var n atomic.Int64
	resp := Response{Status: 201, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"label":"lbl-1"}`)}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			key := "k-" + strconv.FormatInt(n.Add(1), 10)
			c, err := s.Claim(ctx, key, "fp", time.Minute)
			if err != nil || !c.Claimed {
				b.Fatal("claim failed")
			}
			if err := s.Complete(ctx, key, c.Token, resp, time.Hour); err != nil {
				b.Fatal(err)
			}
		}
	})
}
