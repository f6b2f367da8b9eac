package retrygate

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolerr/toolerr"
)

// patternLen is the length of a flaky host's failure pattern, which
// repeats: long enough that any stretch of it fails close to its fraction.
const patternLen = 1000

// flakyHost is an httptest server that answers 503 to a fixed fraction of
// the requests it receives and 200 to the others. Which requests fail is
// drawn once from a seeded generator, so the n-th request always gets the
// same answer: a run of sequential calls is the same on every machine.
type flakyHost struct {
	*httptest.Server
	fail []bool // fail[i%patternLen]: the i-th request gets a 503
	n    atomic.Int64
}

// newFlakyHost starts a host failing exactly the fraction p (0 to 1) of
// every patternLen requests, in an order drawn from seed.
func newFlakyHost(tb testing.TB, p float64, seed uint64) *flakyHost {
	tb.Helper()
	h := &flakyHost{fail: make([]bool, patternLen)}
	for i := range int(p*patternLen + 0.5) {
		h.fail[i] = true
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(h.fail), func(i, j int) { h.fail[i], h.fail[j] = h.fail[j], h.fail[i] })
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	tb.Cleanup(h.Close)
	return h
}

func (h *flakyHost) serve(w http.ResponseWriter, _ *http.Request) {
	i := h.n.Add(1) - 1
	if h.fail[i%patternLen] {
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
		return
	}
	_, _ = io.WriteString(w, "ok")
}

// Hits returns the number of requests the host received.
func (h *flakyHost) Hits() int64 { return h.n.Load() }

// tally is the outcome of a run of logical calls against a host.
type tally struct {
	Calls       int
	OK          int   // calls that ended with a 200
	Failed      int   // calls that ended with another response
	CircuitOpen int   // calls that ended with CIRCUIT_OPEN
	OtherErrors int   // calls that ended with another error
	Hits        int64 // requests that reached the host
}

// SuccessRate is the share of calls that succeeded.
func (t tally) SuccessRate() float64 { return float64(t.OK) / float64(max(t.Calls, 1)) }

// Load is the number of requests that reached the host per logical call.
func (t tally) Load() float64 { return float64(t.Hits) / float64(max(t.Calls, 1)) }

// add records the outcome of one call.
func (t *tally) add(resp *http.Response, err error) {
	t.Calls++
	switch {
	case err == nil && resp.StatusCode == http.StatusOK:
		t.OK++
	case err == nil:
		t.Failed++
	case toolerr.HasCode(err, toolerr.CodeCircuitOpen):
		t.CircuitOpen++
	default:
		t.OtherErrors++
	}
}

// getOnce makes one logical call and closes the response body.
func getOnce(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp, nil
}

// runSequential makes n logical calls to h through c, one after the other,
// and counts their outcomes.
func runSequential(t *testing.T, c *http.Client, h *flakyHost, n int) tally {
	t.Helper()
	defer c.CloseIdleConnections()
	var out tally
	for range n {
		out.add(getOnce(context.Background(), c, h.URL))
	}
	out.Hits = h.Hits()
	return out
}

// tallies is a tally shared by concurrent calls.
type tallies struct {
	mu sync.Mutex
	t  tally
}

func (s *tallies) add(resp *http.Response, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.add(resp, err)
}

// worstWindow returns the highest share of failures a breaker's window can
// have shown to a run of sequential calls that made the host's first n
// requests, perWindow of them at least within any window: the window holds
// either every outcome since the start, or at least perWindow of the latest
// ones, and it counts only from minLen outcomes. Below the breaker's
// FailureRatio, the breaker cannot have opened, however the run was timed.
func (h *flakyHost) worstWindow(n, minLen, perWindow int) float64 {
	fails := make([]int, n+1) // fails[i]: failures among the first i requests
	for i := range n {
		fails[i+1] = fails[i]
		if h.fail[i%patternLen] {
			fails[i+1]++
		}
	}
	ratio := func(i, j int) float64 { return float64(fails[j]-fails[i]) / float64(j-i) }
	worst := 0.0
	for j := minLen; j <= n; j++ {
		worst = max(worst, ratio(0, j)) // since the start
	}
	perWindow = max(perWindow, minLen)
	for i := 1; i+perWindow <= n; i++ {
		for j := i + perWindow; j <= n; j++ {
			worst = max(worst, ratio(i, j)) // the latest outcomes
		}
	}
	return worst
}
