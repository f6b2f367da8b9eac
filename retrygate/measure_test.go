package retrygate

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestMeasureBreakerDefaults measures the default Transport against a host
// failing 10 to 100 % of its calls with 503, breaker on and off, in real
// time: calls arrive at a steady rate, each in its own goroutine, and wait
// out the policy's real backoff. It prints a Markdown table for
// BENCHMARKS.md. It runs only when RETRYGATE_MEASURE is set, for about
// calls/rate seconds per row (2,000 calls at 100 a second: 20 s, 400 s in
// all):
//
//	RETRYGATE_MEASURE=1 go test -count=1 -run TestMeasureBreakerDefaults -v ./retrygate
//
// RETRYGATE_MEASURE_CALLS and RETRYGATE_MEASURE_RATE change the number of
// calls per row and the calls per second.
func TestMeasureBreakerDefaults(t *testing.T) {
	if os.Getenv("RETRYGATE_MEASURE") == "" {
		t.Skip("set RETRYGATE_MEASURE=1 to measure (several minutes)")
	}
	calls := envInt(t, "RETRYGATE_MEASURE_CALLS", 2000)
	rate := envInt(t, "RETRYGATE_MEASURE_RATE", 100)
	fractions := []float64{0.1, 0.3, 0.5, 0.9, 1}
	// The default Transport with the breaker on and off, and, to compare,
	// the defaults before the budget was on and the breaker tripped on a
	// failure ratio.
	configs := []struct {
		name string
		opts func() []Option
	}{
		{"default, breaker on", func() []Option { return nil }},
		{"default, breaker off", func() []Option { return []Option{WithoutBreaker()} }},
		{"previous, breaker on", func() []Option {
			return []Option{WithoutBudget(), WithBreakers(NewBreakers(BreakerSettings{
				ConsecutiveFailures: 5, OpenFor: 30 * time.Second, FailureRatio: 2,
			}))}
		}},
		{"previous, breaker off", func() []Option { return []Option{WithoutBudget(), WithoutBreaker()} }},
	}

	fmt.Printf("%d calls per row at %d a second; the host answers 503 to a seeded share of requests\n\n", calls, rate)
	fmt.Println("| client | host failing | success | host requests per call | CIRCUIT_OPEN |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, cfg := range configs {
		for i, p := range fractions {
			host := newFlakyHost(t, p, uint64(i+1))
			rt := Transport(loopbackBase(), cfg.opts()...)
			got := runPaced(t, rt, host, calls, rate)
			fmt.Printf("| %s | %.0f %% | %.1f %% | %.3f | %d |\n",
				cfg.name, 100*p, 100*got.SuccessRate(), got.Load(), got.CircuitOpen)
		}
	}
}

// loopbackBase is a base transport that keeps enough idle connections for
// the concurrent calls of a measurement.
func loopbackBase() *http.Transport {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConns = 512
	base.MaxIdleConnsPerHost = 512
	return base
}

// runPaced starts n logical calls to h through rt, rate a second, each in
// its own goroutine with a 30 s deadline, and counts their outcomes once
// all have ended.
func runPaced(t *testing.T, rt http.RoundTripper, h *flakyHost, n, rate int) tally {
	t.Helper()
	c := &http.Client{Transport: rt}
	defer c.CloseIdleConnections()
	var (
		out tallies
		wg  sync.WaitGroup
	)
	every := time.Second / time.Duration(max(rate, 1))
	start := time.Now()
	for i := range n {
		time.Sleep(time.Until(start.Add(time.Duration(i) * every)))
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out.add(getOnce(ctx, c, h.URL))
		})
	}
	wg.Wait()
	got := out.t
	got.Hits = h.Hits()
	if got.OtherErrors > 0 {
		t.Errorf("%d calls ended with an unexpected error", got.OtherErrors)
	}
	return got
}

// envInt reads a positive integer from the environment, def when unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}
