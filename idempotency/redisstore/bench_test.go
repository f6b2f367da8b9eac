package redisstore_test

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// benchResponse is a typical small JSON response.
var benchResponse = idempotency.Response{
	Status: http.StatusCreated,
	Header: http.Header{"Content-Type": {"application/json"}},
	Body:   []byte(`{"id":"ord_0123456789","status":"created","amount":{"value":1250,"currency":"EUR"}}`),
}

// newBenchStore starts a server and returns a store on it with its scripts
// already cached by the server.
func newBenchStore(b *testing.B) *redisstore.Store {
	b.Helper()
	addr, _ := redistest.Start(b)
	client := redis.NewClient(&redis.Options{Addr: addr})
	b.Cleanup(func() { _ = client.Close() })
	s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	c, err := s.Claim(b.Context(), "warmup", "fp", time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Release(b.Context(), "warmup", c.Token); err != nil {
		b.Fatal(err)
	}
	c, err = s.Claim(b.Context(), "warmup", "fp", time.Minute)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Complete(b.Context(), "warmup", c.Token, benchResponse, time.Minute); err != nil {
		b.Fatal(err)
	}
	if _, _, err := s.Get(b.Context(), "warmup"); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkClaimComplete claims and completes distinct keys from parallel
// goroutines: the store's cost of one request that runs.
func BenchmarkClaimComplete(b *testing.B) {
	s := newBenchStore(b)
	var seq atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		ctx := b.Context()
		for pb.Next() {
			key := "k" + strconv.FormatInt(seq.Add(1), 10)
			c, err := s.Claim(ctx, key, "fp", time.Minute)
			if err != nil || !c.Claimed {
				b.Errorf("claim %s: %v %+v", key, err, c)
				return
			}
			if err := s.Complete(ctx, key, c.Token, benchResponse, time.Minute); err != nil {
				b.Errorf("complete %s: %v", key, err)
				return
			}
		}
	})
}

// BenchmarkGet reads one completed record: the store's cost of a replay
// lookup.
func BenchmarkGet(b *testing.B) {
	s := newBenchStore(b)
	ctx := b.Context()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, ok, err := s.Get(ctx, "warmup"); err != nil || !ok {
			b.Fatalf("get: %v %v", ok, err)
		}
	}
}
