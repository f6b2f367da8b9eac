package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestMemoryStoreBoundedInEntries: completed records past the entry bound
// are dropped oldest first, and the eviction queues stay bounded.
func TestMemoryStoreBoundedInEntries(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithMaxEntries(memShards * 4)) // four per shard
	for i := range 2000 {
		key := fmt.Sprintf("k-%d", i)
		c, err := s.Claim(ctx, key, "fp", time.Minute)
		require.NoError(t, err)
		require.True(t, c.Claimed)
		require.NoError(t, s.Complete(ctx, key, c.Token, Response{Status: 201}, time.Hour))
	}
	total := 0
	for i := range s.shards {
		sh := &s.shards[i]
		total += len(sh.records)
		assert.LessOrEqual(t, len(sh.records), 4)
		assert.LessOrEqual(t, len(sh.done)+len(sh.claims), 2*4+16+2, "the eviction queues stay bounded")
	}
	assert.LessOrEqual(t, total, memShards*4)
	_, ok, err := s.Get(ctx, "k-1999")
	require.NoError(t, err)
	assert.True(t, ok, "the newest records stay")
}

// keysInShard returns n keys that s keeps in shard i.
func keysInShard(s *MemoryStore, i, n int) []string {
	var keys []string
	for j := 0; len(keys) < n; j++ {
		if k := fmt.Sprintf("key-%d", j); s.shard(k) == &s.shards[i] {
			keys = append(keys, k)
		}
	}
	return keys
}

// TestMemoryStoreNeverEvictsInFlightClaims: a shard full of claims in
// flight refuses new claims with ErrStoreFull and keeps every claim; a
// completed record or a lapsed claim makes room again.
func TestMemoryStoreNeverEvictsInFlightClaims(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := NewMemoryStore(WithMaxEntries(memShards*4), WithClock(func() time.Time { return now }))
	keys := keysInShard(s, 7, 8)
	tokens := map[string]uint64{}
	for _, k := range keys[:4] {
		c, err := s.Claim(ctx, k, "fp", time.Minute)
		require.NoError(t, err)
		require.True(t, c.Claimed)
		tokens[k] = c.Token
	}
	for _, k := range keys[4:] {
		_, err := s.Claim(ctx, k, "fp", time.Minute)
		require.ErrorIs(t, err, ErrStoreFull, "a full shard refuses %s", k)
	}
	for _, k := range keys[:4] {
		rec, ok, err := s.Get(ctx, k)
		require.NoError(t, err)
		require.True(t, ok, "claim %s kept", k)
		assert.Equal(t, InFlight, rec.State)
		assert.Equal(t, tokens[k], rec.Token)
		c, err := s.Claim(ctx, k, "fp", time.Minute)
		require.NoError(t, err, "a retry of a kept claim finds it")
		assert.False(t, c.Claimed)
	}
	other := keysInShard(s, 8, 1)[0]
	c, err := s.Claim(ctx, other, "fp", time.Minute)
	require.NoError(t, err)
	assert.True(t, c.Claimed, "other shards are not affected")

	require.NoError(t, s.Complete(ctx, keys[0], tokens[keys[0]], Response{Status: 201}, time.Hour))
	c, err = s.Claim(ctx, keys[4], "fp", 10*time.Second)
	require.NoError(t, err, "the completed record makes room")
	require.True(t, c.Claimed)
	_, ok, _ := s.Get(ctx, keys[0])
	assert.False(t, ok, "the completed record was dropped")

	_, err = s.Claim(ctx, keys[5], "fp", time.Minute)
	require.ErrorIs(t, err, ErrStoreFull)
	now = now.Add(2 * time.Minute) // every lease lapses
	c, err = s.Claim(ctx, keys[5], "fp", time.Minute)
	require.NoError(t, err, "a lapsed claim makes room")
	assert.True(t, c.Claimed)
}

// TestMemoryStoreFullByBytes: a shard at its byte bound with only claims in
// flight refuses new claims; an empty shard accepts a claim larger than
// its bound rather than refusing every claim.
func TestMemoryStoreFullByBytes(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithMaxBytes(memShards * 1000)) // 1000 bytes a shard
	keys := keysInShard(s, 3, 10)
	fp := strings.Repeat("f", 300) // about 470 bytes a claim
	for _, k := range keys[:2] {
		c, err := s.Claim(ctx, k, fp, time.Minute)
		require.NoError(t, err)
		require.True(t, c.Claimed)
	}
	_, err := s.Claim(ctx, keys[2], fp, time.Minute)
	require.ErrorIs(t, err, ErrStoreFull)
	c, err := s.Claim(ctx, keysInShard(s, 4, 1)[0], strings.Repeat("f", 5000), time.Minute)
	require.NoError(t, err)
	assert.True(t, c.Claimed, "an empty shard takes one oversized claim")
}

func TestMemoryStoreBoundedInBytes(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithMaxBytes(memShards * 64 << 10)) // 64 KiB a shard
	body := []byte(strings.Repeat("b", 16<<10))
	for i := range 500 {
		key := fmt.Sprintf("k-%d", i)
		c, err := s.Claim(ctx, key, "fp", time.Minute)
		require.NoError(t, err)
		require.NoError(t, s.Complete(ctx, key, c.Token, Response{Status: 201, Header: http.Header{}, Body: body}, time.Hour))
	}
	for i := range s.shards {
		assert.LessOrEqual(t, s.shards[i].size, 64<<10, "shard %d", i)
	}
}

func TestMemoryStoreKeepsItsOwnCopy(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	c, _ := s.Claim(ctx, "k", "fp", time.Minute)
	body := []byte("label-1")
	h := http.Header{"Location": {"/labels/1"}}
	require.NoError(t, s.Complete(ctx, "k", c.Token, Response{Status: 201, Header: h, Body: body}, time.Hour))
	body[0], h["Location"][0] = 'X', "/changed"
	rec, ok, _ := s.Get(ctx, "k")
	require.True(t, ok)
	assert.Equal(t, "label-1", string(rec.Response.Body))
	assert.Equal(t, "/labels/1", rec.Response.Header.Get("Location"))
}

func TestMemoryStoreParallelKeys(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 500 {
				key := fmt.Sprintf("g%d-%d", g, i)
				c, err := s.Claim(ctx, key, "fp", time.Minute)
				if err != nil || !c.Claimed {
					t.Errorf("claim %s: %v %v", key, c, err)
					return
				}
				if err := s.Complete(ctx, key, c.Token, Response{Status: 200}, time.Hour); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestEvictionNeverRunsTwice is the reported break: a store bounded to
// 6,400 entries, one keyed request blocked in its handler, then 20,000
// requests with other keys. The retry of the first key must find it in
// flight, never run the handler a second time.
func TestEvictionNeverRunsTwice(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 8000
	}
	var firstRuns, running, overlap atomic.Int32
	release := make(chan struct{})
	h := newMW(NewMemoryStore(WithMaxEntries(6400)))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Idempotency-Key") == "first" {
			if running.Add(1) > 1 {
				overlap.Add(1)
			}
			defer running.Add(-1)
			if firstRuns.Add(1) == 1 {
				<-release // the first execution blocks; a second would not
			}
		}
		w.WriteHeader(http.StatusCreated)
	}))
	done := make(chan int)
	go func() { done <- call(h, "first", "Bearer a", `{"to":"Oslo"}`).Code }()
	require.Eventually(t, func() bool { return firstRuns.Load() == 1 }, 5*time.Second, time.Millisecond)
	for i := range n {
		require.Equal(t, 201, call(h, fmt.Sprintf("other-%d", i), "Bearer a", `{"to":"Oslo"}`).Code)
	}
	retry := call(h, "first", "Bearer a", `{"to":"Oslo"}`)
	assert.Equal(t, 409, retry.Code)
	assert.Equal(t, toolerr.CodeIdempotencyInProgress, code(t, retry), "the claim in flight was kept")
	close(release)
	assert.Equal(t, 201, <-done)
	assert.Equal(t, "true", call(h, "first", "Bearer a", `{"to":"Oslo"}`).Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 1, firstRuns.Load(), "the handler ran once")
	assert.Zero(t, overlap.Load(), "never concurrently")
}

// TestFullStoreRefusesEvenFailOpen: when a shard holds only claims in
// flight, a new key gets IDEMPOTENCY_UNAVAILABLE, also with FailOpen, and
// its handler does not run; once the claims complete, it runs.
func TestFullStoreRefusesEvenFailOpen(t *testing.T) {
	store := NewMemoryStore(WithMaxEntries(memShards)) // one per shard
	var runs atomic.Int32
	release := make(chan struct{})
	h := newMW(store, FailOpen())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		if r.Header.Get("Idempotency-Key") == "slow" {
			<-release
		}
		w.WriteHeader(http.StatusCreated)
	}))
	done := make(chan int)
	go func() { done <- call(h, "slow", "Bearer a", `{}`).Code }()
	require.Eventually(t, func() bool { return runs.Load() == 1 }, 5*time.Second, time.Millisecond)
	slowShard := store.shard(storeKey(nil, authorizationPrincipal(authRequest("Bearer a")), "/tools/create_shipment_label", "slow"))
	var key string
	for i := 0; key == ""; i++ {
		k := fmt.Sprintf("k-%d", i)
		if store.shard(storeKey(nil, authorizationPrincipal(authRequest("Bearer a")), "/tools/create_shipment_label", k)) == slowShard {
			key = k
		}
	}
	refused := call(h, key, "Bearer a", `{}`)
	assert.Equal(t, 503, refused.Code)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, code(t, refused))
	assert.NotEmpty(t, refused.Header().Get("Retry-After"))
	assert.EqualValues(t, 1, runs.Load(), "refused: not run, even with FailOpen")
	close(release)
	require.Equal(t, 201, <-done)
	assert.Equal(t, 201, call(h, key, "Bearer a", `{}`).Code, "room again once the claim completed")
	assert.EqualValues(t, 2, runs.Load())
}

// authRequest returns a request with the Authorization header auth.
func authRequest(auth string) *http.Request {
	r := httptest.NewRequest("POST", "/", nil)
	r.Header.Set("Authorization", auth)
	return r
}
