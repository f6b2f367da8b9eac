package idempotency

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryFailuresBounded: the runs of failures of a MemoryStore are
// bounded by its entry limit per shard, and their eviction queues by the
// live runs; the run dropped first is the one that started first.
func TestMemoryFailuresBounded(t *testing.T) {
	s := NewMemoryStore(WithMaxEntries(memShards * 2)) // 2 runs per shard
	ctx := t.Context()
	for i := range 10_000 {
		_, err := s.AddFailure(ctx, "k"+strconv.Itoa(i), "NOT_FOUND", time.Hour)
		require.NoError(t, err)
	}
	total := 0
	for i := range s.shards {
		sh := &s.shards[i]
		assert.LessOrEqual(t, len(sh.failures), 2)
		assert.LessOrEqual(t, len(sh.failQueue), 2*len(sh.failures)+16+1)
		total += len(sh.failures)
	}
	assert.Positive(t, total)
	f, err := s.Failures(ctx, "k9999")
	require.NoError(t, err)
	assert.Equal(t, 1, f.Count, "the newest run is kept")
	f, err = s.Failures(ctx, "k0")
	require.NoError(t, err)
	assert.Zero(t, f.Count, "the oldest run was dropped")
}

// TestMemoryMayHaveRuns: the store says it holds no run until a failure
// is counted, and again once the latest window has passed.
func TestMemoryMayHaveRuns(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s := NewMemoryStore(WithClock(func() time.Time { return now }))
	assert.False(t, s.MayHaveRuns())
	_, err := s.AddFailure(t.Context(), "a", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	_, err = s.AddFailure(t.Context(), "b", "NOT_FOUND", 2*time.Minute)
	require.NoError(t, err)
	assert.True(t, s.MayHaveRuns())
	now = now.Add(time.Minute)
	assert.True(t, s.MayHaveRuns(), "b's window has not passed")
	now = now.Add(time.Minute)
	assert.False(t, s.MayHaveRuns())
}
