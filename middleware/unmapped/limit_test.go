package unmapped

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLimiterPairInterval(t *testing.T) {
	l := newLimiter(time.Minute, 100, MaxPairs)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ok, n := l.admit("stripe", 502, t0)
	require.True(t, ok, "the first response of a pair is sampled")
	assert.Zero(t, n)
	for i := range 5 {
		ok, _ = l.admit("stripe", 502, t0.Add(time.Duration(i)*time.Second))
		assert.False(t, ok, "within the interval the pair is suppressed")
	}
	ok, _ = l.admit("stripe", 503, t0.Add(time.Second))
	assert.True(t, ok, "another status is another pair")
	ok, _ = l.admit("github", 502, t0.Add(time.Second))
	assert.True(t, ok, "another vendor is another pair")
	ok, n = l.admit("stripe", 502, t0.Add(time.Minute))
	assert.True(t, ok, "after the interval the pair is sampled again")
	assert.Equal(t, 5, n, "with the count of what was suppressed since")
	ok, n = l.admit("stripe", 502, t0.Add(2*time.Minute))
	assert.True(t, ok)
	assert.Zero(t, n, "the count starts again after each sample")
}

func TestLimiterGlobalRate(t *testing.T) {
	l := newLimiter(time.Minute, 3, MaxPairs)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sampled := 0
	for i := range 10 {
		if ok, _ := l.admit(fmt.Sprint("v", i), 500, t0); ok {
			sampled++
		}
	}
	assert.Equal(t, 3, sampled, "a burst takes as many samples as the rate a second")
	ok, _ := l.admit("v9", 500, t0.Add(300*time.Millisecond))
	assert.False(t, ok, "0.9 tokens are no token")
	ok, n := l.admit("v9", 500, t0.Add(400*time.Millisecond))
	assert.True(t, ok, "1.2 tokens after 400 ms at 3 a second")
	assert.Equal(t, 2, n, "the pair counted the two responses the rate suppressed")
	ok, _ = l.admit("v8", 500, t0.Add(time.Hour))
	assert.True(t, ok)
	sampled = 0
	for i := range 10 {
		if ok, _ := l.admit(fmt.Sprint("w", i), 500, t0.Add(time.Hour)); ok {
			sampled++
		}
	}
	assert.Equal(t, 2, sampled, "a quiet hour fills the bucket to its size, not beyond")
	ok, _ = l.admit("late", 500, t0)
	assert.False(t, ok, "a clock that goes back adds no token")
}

func TestLimiterForgetsTheOldestPair(t *testing.T) {
	l := newLimiter(time.Minute, 1000, 4)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 4 {
		ok, _ := l.admit(fmt.Sprint("v", i), 500, t0)
		require.True(t, ok)
	}
	ok, _ := l.admit("v0", 500, t0.Add(time.Second))
	require.False(t, ok, "v0 is remembered and suppressed")
	ok, _ = l.admit("v4", 500, t0.Add(time.Second))
	require.True(t, ok)
	assert.Equal(t, 4, l.size(), "a fifth pair does not grow the map")
	ok, n := l.admit("v0", 500, t0.Add(2*time.Second))
	assert.True(t, ok, "v0, remembered first, was forgotten, so it is new again")
	assert.Zero(t, n, "and its count went with it")
	ok, _ = l.admit("v2", 500, t0.Add(2*time.Second))
	assert.False(t, ok, "v2 is still remembered")
	assert.Equal(t, 4, l.size())
}

// TestLimiterKeepsItsOwnCopyOfTheName: a vendor name cut from a longer
// text is remembered as a copy, so the map does not hold the text.
func TestLimiterKeepsItsOwnCopyOfTheName(t *testing.T) {
	l := newLimiter(time.Minute, 10, MaxPairs)
	long := strings.Repeat("v", 1<<20)
	l.admit(pairVendor(long), 500, time.Now())
	require.Len(t, l.pairs, 1)
	for k := range l.pairs {
		assert.Len(t, k.vendor, maxVendorKey)
		assert.NotSame(t, unsafe.StringData(long), unsafe.StringData(k.vendor), "the key is a copy")
	}
	allocs := testing.AllocsPerRun(100, func() { l.admit(pairVendor(long), 500, time.Now()) })
	assert.Zero(t, allocs, "a known pair is looked up without a copy")
}

func TestNilSamplerOffersNothing(t *testing.T) {
	var s *Sampler
	assert.False(t, s.Offer(context.Background(), Response{Vendor: "stripe", Status: 502}))
	assert.Nil(t, s.Samples())
}
