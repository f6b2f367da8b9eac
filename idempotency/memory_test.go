package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoryStoreBoundedInEntries(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore(WithMaxEntries(memShards * 4)) // four per shard
	for i := range 2000 {
		_, err := s.Claim(ctx, fmt.Sprintf("k-%d", i), "fp", time.Minute)
		require.NoError(t, err)
	}
	total := 0
	for i := range s.shards {
		total += len(s.shards[i].records)
		assert.LessOrEqual(t, len(s.shards[i].records), 4)
		assert.LessOrEqual(t, len(s.shards[i].order), 2*4+16+1, "the eviction queue stays bounded")
	}
	assert.LessOrEqual(t, total, memShards*4)
	_, ok, err := s.Get(ctx, "k-1999")
	require.NoError(t, err)
	assert.True(t, ok, "the newest records stay")
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
