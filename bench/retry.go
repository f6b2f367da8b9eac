package bench

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go/failsafehttp"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/toolerr/toolerr/retrygate"
)

// Retry contenders, as they appear in benchmark names and metric units.
const (
	Plain         = "plain"          // http.Client on the base transport: the floor, one attempt
	Retrygate     = "retrygate"      // retrygate.Transport, default policy (budget, breaker, handoff) with tiny waits
	RetrygateBare = "retrygate_bare" // the same without budget, breaker and handoff: plain retries
	Retryablehttp = "retryablehttp"  // go-retryablehttp's StandardClient
	Failsafe      = "failsafe"       // failsafe-go's failsafehttp RoundTripper with its HTTP retry policy
)

// RetryContenders lists the retry contenders, in the order they run.
func RetryContenders(flaky bool) []string {
	if flaky {
		return []string{Plain, Retrygate, RetrygateBare, Retryablehttp, Failsafe}
	}
	return []string{Plain, Retrygate, Retryablehttp, Failsafe}
}

// Every retrying contender makes at most maxAttempts attempts per call and
// waits between minWait and maxWait, so the comparison is about attempts
// and overhead, not sleeping.
const (
	maxAttempts = 3
	minWait     = time.Microsecond
	maxWait     = 10 * time.Microsecond
)

// Seed is the seed of the flaky server's coin: every contender's server
// draws the same sequence.
const Seed = 15

// Server is a loopback server that counts the requests it receives and,
// when flaky, answers 503 to a seeded half of them.
type Server struct {
	*httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	coin     *rand.Rand
}

// NewServer starts a Server; flaky makes it answer 503 to half the
// requests, drawn from a generator seeded with Seed.
func NewServer(flaky bool) *Server {
	s := &Server{}
	if flaky {
		s.coin = rand.New(rand.NewPCG(Seed, Seed))
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.requests.Add(1)
		if s.fail() {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, "service unavailable")
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "ok: a small body")
	}))
	return s
}

// fail draws the coin of a flaky server.
func (s *Server) fail() bool {
	if s.coin == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.coin.IntN(2) == 0
}

// Requests returns the number of requests received so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

// newBase returns a base transport of its own for each contender.
func newBase() *http.Transport {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 16
	return base
}

// NewClient returns contender c's client, configured for maxAttempts
// attempts with waits between minWait and maxWait, each returning the last
// response when its attempts are spent (as retrygate does).
func NewClient(c string) *http.Client {
	base := newBase()
	switch c {
	case Plain:
		return &http.Client{Transport: base}
	case Retrygate, RetrygateBare:
		p := retrygate.DefaultPolicy()
		p.MaxAttempts = maxAttempts
		p.InitialInterval, p.MaxInterval = minWait, maxWait
		opts := []retrygate.Option{retrygate.WithPolicy(p)}
		if c == RetrygateBare {
			opts = append(opts, retrygate.WithoutBudget(), retrygate.WithoutBreaker(), retrygate.WithoutHandoff())
		}
		return &http.Client{Transport: retrygate.Transport(base, opts...)}
	case Retryablehttp:
		rc := retryablehttp.NewClient()
		rc.HTTPClient = &http.Client{Transport: base}
		rc.Logger = nil
		rc.RetryMax = maxAttempts - 1
		rc.RetryWaitMin, rc.RetryWaitMax = minWait, maxWait
		rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
		return rc.StandardClient()
	case Failsafe:
		rp := failsafehttp.NewRetryPolicyBuilder().
			WithMaxAttempts(maxAttempts).
			WithBackoff(minWait, maxWait).
			ReturnLastFailure().
			Build()
		return &http.Client{Transport: failsafehttp.NewRoundTripper(base, rp)}
	}
	panic("bench: unknown retry contender " + c)
}

// Get makes one call: a GET of srv, its body read and closed. It reports
// whether the call ended in a 200.
func Get(c *http.Client, url string) (ok bool, err error) {
	resp, err := c.Get(url)
	if err != nil {
		return false, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return true, nil
	case http.StatusServiceUnavailable:
		return false, nil
	}
	return false, fmt.Errorf("status %d", resp.StatusCode)
}

// CheckRetry checks contender c once against a fresh server: on a healthy
// one, a call is one attempt that ends in a 200; on a flaky one, 200 calls
// make at least as many attempts (more for a retrying contender) and never
// more than maxAttempts each.
func CheckRetry(c string, flaky bool) error {
	srv := NewServer(flaky)
	defer srv.Close()
	cl := NewClient(c)
	defer cl.CloseIdleConnections()
	const calls = 200
	oks := 0
	for range calls {
		ok, err := Get(cl, srv.URL)
		if err != nil {
			return fmt.Errorf("%s: %v", c, err)
		}
		if ok {
			oks++
		}
	}
	n := srv.Requests()
	switch {
	case !flaky && (n != calls || oks != calls):
		return fmt.Errorf("%s on a healthy server: %d requests and %d successes for %d calls", c, n, oks, calls)
	case flaky && n > maxAttempts*calls:
		return fmt.Errorf("%s on a flaky server: %d requests for %d calls, more than %d attempts each", c, n, calls, maxAttempts)
	case flaky && c != Plain && n <= calls:
		return fmt.Errorf("%s on a flaky server: %d requests for %d calls: it never retried", c, n, calls)
	case flaky && c != Plain && c != Retrygate && oks < calls*3/4:
		// Three attempts at even odds succeed 7 times in 8.
		return fmt.Errorf("%s on a flaky server: %d successes in %d calls", c, oks, calls)
	}
	return nil
}
