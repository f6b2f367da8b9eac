package retrygate

import (
	"math"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"
	"github.com/stretchr/testify/assert"
)

func TestBreakerSettingsDefaults(t *testing.T) {
	defaults := BreakerSettings{
		FailureRatio: 0.8, MinRequests: 20, Window: 10 * time.Second,
		OpenFor: 5 * time.Second, HalfOpenRequests: 1,
	}
	tests := []struct {
		name string
		in   BreakerSettings
		want BreakerSettings
	}{
		{"zero", BreakerSettings{}, defaults},
		{"negative and NaN", BreakerSettings{FailureRatio: math.NaN(), Window: -time.Second, OpenFor: -1}, defaults},
		{"negative ratio", BreakerSettings{FailureRatio: -0.5}, defaults},
		{"set fields are kept", BreakerSettings{
			FailureRatio: 0.6, MinRequests: 50, Window: time.Minute, ConsecutiveFailures: 7,
			OpenFor: time.Second, HalfOpenRequests: 3,
		}, BreakerSettings{
			FailureRatio: 0.6, MinRequests: 50, Window: time.Minute, ConsecutiveFailures: 7,
			OpenFor: time.Second, HalfOpenRequests: 3,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.withDefaults()
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got.Window/breakerBuckets, got.bucket())
		})
	}
	assert.Equal(t, time.Duration(1), BreakerSettings{Window: 5}.bucket(), "a bucket is never zero")
}

func TestBreakerSettingsReadyToTrip(t *testing.T) {
	counts := func(ok, failed, streak uint32) gobreaker.Counts {
		return gobreaker.Counts{
			Requests: ok + failed, TotalSuccesses: ok, TotalFailures: failed, ConsecutiveFailures: streak,
		}
	}
	def := BreakerSettings{}.withDefaults()
	streak := BreakerSettings{ConsecutiveFailures: 3}.withDefaults()
	ratioOff := BreakerSettings{ConsecutiveFailures: 3, FailureRatio: 2}.withDefaults()
	tests := []struct {
		name string
		s    BreakerSettings
		c    gobreaker.Counts
		want bool
	}{
		{"a streak of 5 is not enough", def, counts(0, 5, 5), false},
		{"19 failures of 19: below the minimum", def, counts(0, 19, 19), false},
		{"20 failures of 20", def, counts(0, 20, 20), true},
		{"16 failures of 20: 80 %", def, counts(4, 16, 2), true},
		{"15 failures of 20", def, counts(5, 15, 9), false},
		{"half of 1000", def, counts(500, 500, 12), false},
		{"exclusions do not count", def, gobreaker.Counts{Requests: 40, TotalExclusions: 21, TotalFailures: 19, ConsecutiveFailures: 19}, false},
		{"streak rule, on", streak, counts(10, 3, 3), true},
		{"streak rule, short", streak, counts(10, 2, 2), false},
		{"ratio rule off", ratioOff, counts(0, 100, 2), false},
		{"ratio rule off, streak", ratioOff, counts(0, 100, 3), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.s.readyToTrip(tt.c))
		})
	}
}
