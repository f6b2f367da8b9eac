package idempotency

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAdversarialMemoryStoreModel drives a tiny MemoryStore (2 records and
// about 2 KB per shard) with random claims, completions of up to 1.5 KB,
// releases and clock ticks, against a model of the claims it handed out.
// Whatever the store evicts to make room, a claim whose lease holds is
// never lost: Get still shows it with its token, a second Claim of its key
// never succeeds, and its Complete and Release succeed. A full shard may
// only refuse with ErrStoreFull.
func TestAdversarialMemoryStoreModel(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { runMemoryModel(t, seed) })
	}
}

type modelClaim struct {
	token uint64
	until time.Time
}

func runMemoryModel(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := NewMemoryStore(WithMaxEntries(2*memShards), WithMaxBytes(2000*memShards), WithClock(clock))
	ctx := context.Background()
	claims := map[string]modelClaim{}
	live := func(c modelClaim) bool { return clock().Before(c.until) }
	full := 0
	for step := range 20_000 {
		key := fmt.Sprintf("k%d", rng.IntN(300))
		c, held := claims[key]
		switch op := rng.IntN(10); {
		case op < 5:
			got, err := s.Claim(ctx, key, "fp", time.Duration(1+rng.IntN(5))*time.Second)
			if err != nil {
				require.ErrorIs(t, err, ErrStoreFull, "step %d", step)
				full++
				continue
			}
			if held && live(c) {
				require.False(t, got.Claimed, "step %d: %s claimed twice while its lease holds", step, key)
				require.Equal(t, InFlight, got.Existing.State, "step %d", step)
				require.Equal(t, c.token, got.Existing.Token, "step %d", step)
				continue
			}
			if got.Claimed {
				require.Greater(t, got.Token, c.token, "step %d: fencing tokens grow", step)
				rec, ok, err := s.Get(ctx, key)
				require.NoError(t, err)
				require.True(t, ok)
				claims[key] = modelClaim{got.Token, rec.LeaseUntil}
				continue
			}
			require.Equal(t, Completed, got.Existing.State, "step %d: %s held by a claim the model does not know", step, key)
		case op < 7 && held:
			body := bytes.Repeat([]byte{'x'}, rng.IntN(1500))
			err := s.Complete(ctx, key, c.token, Response{Status: 201, Body: body}, time.Duration(1+rng.IntN(20))*time.Second)
			if live(c) {
				require.NoError(t, err, "step %d: completing a live claim", step)
			} else if err != nil {
				require.ErrorIs(t, err, ErrLostClaim)
			}
			delete(claims, key)
		case op < 8 && held:
			err := s.Release(ctx, key, c.token)
			if live(c) {
				require.NoError(t, err, "step %d: releasing a live claim", step)
			} else if err != nil && !errors.Is(err, ErrLostClaim) {
				t.Fatalf("step %d: %v", step, err)
			}
			delete(claims, key)
		case op < 9:
			mu.Lock()
			now = now.Add(time.Duration(rng.IntN(300)) * time.Millisecond)
			mu.Unlock()
		}
		if step%50 == 0 {
			for k, c := range claims {
				if !live(c) {
					continue
				}
				rec, ok, err := s.Get(ctx, k)
				require.NoError(t, err)
				require.True(t, ok, "step %d: live claim of %s evicted", step, k)
				require.Equal(t, InFlight, rec.State)
				require.Equal(t, c.token, rec.Token)
			}
		}
	}
	require.Positive(t, full, "the bounds were reached: the test exercised eviction and refusal")
}
