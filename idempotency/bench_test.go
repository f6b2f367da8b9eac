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

// BenchmarkToolCalls measures ToolCalls.Do over the memory store: a first
// keyed execution (a new key each time), a replay (the same key again),
// and a guarded keyless call (new arguments each time).
func BenchmarkToolCalls(b *testing.B) {
	tc := NewToolCalls(NewMemoryStore(WithMaxEntries(1<<22)), WithLogger(quiet))
	ctx := context.Background()
	run := func(context.Context) ([]byte, bool) { return []byte(`{"label":"lbl-1"}`), true }
	args := []byte(`{"to":"Oslo","kg":2,"items":[{"sku":"A-1","qty":3}]}`)
	var n atomic.Int64
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			call := ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: args, Key: "k-" + strconv.FormatInt(n.Add(1), 10)}
			if _, _, e := tc.Do(ctx, call, true, run); e != nil {
				b.Fatal(e)
			}
		}
	})
	b.Run("replay", func(b *testing.B) {
		call := ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: args, Key: "k-replay"}
		_, _, _ = tc.Do(ctx, call, true, run)
		b.ReportAllocs()
		for b.Loop() {
			if _, replayed, e := tc.Do(ctx, call, true, run); e != nil || !replayed {
				b.Fatal("not a replay")
			}
		}
	})
	b.Run("guarded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			call := ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: []byte(`{"n":` + strconv.FormatInt(n.Add(1), 10) + `}`)}
			if _, _, e := tc.Do(ctx, call, true, run); e != nil {
				b.Fatal(e)
			}
		}
	})
}
