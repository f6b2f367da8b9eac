package retrygate

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSpentHostsExpireAndClear(t *testing.T) {
	var s spentHosts
	now := time.Unix(1_700_000_000, 0)
	assert.False(t, s.spent("api.example.test", now))
	s.mark("api.example.test", now, now.Add(time.Second))
	assert.True(t, s.spent("api.example.test", now.Add(999*time.Millisecond)))
	assert.False(t, s.spent("api.example.test", now.Add(time.Second)), "expired at its time")
	assert.False(t, s.spent("api.example.test", now), "and dropped")
	s.mark("api.example.test", now, now.Add(time.Minute))
	s.clear("api.example.test")
	assert.False(t, s.spent("api.example.test", now))
}

func TestSpentHostsStayBounded(t *testing.T) {
	var s spentHosts
	now := time.Unix(1_700_000_000, 0)
	for i := range maxBreakerHosts {
		s.mark(fmt.Sprintf("h%d.test", i), now, now.Add(time.Duration(i+1)*time.Millisecond))
	}
	later := now.Add(10 * time.Millisecond)
	s.mark("new.test", later, later.Add(time.Minute))
	assert.Len(t, s.until, maxBreakerHosts-9, "the marks expired at the time of the new one are dropped")
	assert.True(t, s.spent("new.test", later))
	assert.True(t, s.spent("h4095.test", later))

	full := spentHosts{}
	for i := range maxBreakerHosts {
		full.mark(fmt.Sprintf("h%d.test", i), now, now.Add(time.Hour))
	}
	full.mark("new.test", now, now.Add(time.Hour))
	assert.Len(t, full.until, maxBreakerHosts, "with none expired, one is dropped")
	assert.True(t, full.spent("new.test", now))
}

func TestNextInterval(t *testing.T) {
	p := normalize(DefaultPolicy())
	assert.Equal(t, 200*time.Millisecond, nextInterval(p, 1))
	assert.Equal(t, 800*time.Millisecond, nextInterval(p, 3))
	assert.Equal(t, 10*time.Second, nextInterval(p, 20), "capped at MaxInterval")
	p.MaxInterval = 0
	assert.Equal(t, time.Duration(math.MaxInt64), nextInterval(p, 200), "no overflow without a cap")
}
