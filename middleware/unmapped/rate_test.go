package unmapped

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestWithRateBoundsSamplesOverAllPairs: WithRate(n) lets n samples of
// distinct pairs through in one instant and refuses the rest, which are
// counted as suppressed for their pairs; a second later the bucket has
// refilled.
func TestWithRateBoundsSamplesOverAllPairs(t *testing.T) {
	clock := newTestClock()
	s := New(WithRate(3), WithClock(clock.Now), WithLogger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	sampled := 0
	for i := range 10 {
		if s.Offer(ctx, Response{Vendor: fmt.Sprintf("vendor-%d", i), Status: 500}) {
			sampled++
		}
	}
	assert.Equal(t, 3, sampled, "three tokens")
	clock.Advance(time.Second)
	assert.True(t, s.Offer(ctx, Response{Vendor: "vendor-9", Status: 500}), "refilled a second later")
	assert.Equal(t, 1, s.Samples()[0].Suppressed, "vendor-9's refused response is counted")
}
