package retrygate

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// oneShot returns a client whose calls make one attempt each, so each call
// is one breaker observation, over breakers b.
func oneShot(b *Breakers) *http.Client {
	p := DefaultPolicy()
	p.MaxAttempts = 1
	p.Clock = &sleepClock{}
	return &http.Client{Transport: Transport(nil, WithPolicy(p), WithBreakers(b))}
}

// state returns the breaker state of srv's host.
func state(t *testing.T, b *Breakers, srv *scripted) gobreaker.State {
	t.Helper()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return b.get(breakerKey(u.Host)).cb.State()
}

func status0(t *testing.T, c *http.Client, url string) (int, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

func TestBreakerOpensHalfOpensAndCloses(t *testing.T) {
	const openFor = 300 * time.Millisecond
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 3, OpenFor: openFor})
	c := oneShot(b)
	down := newScripted(t, err503)
	other := newScripted(t, ok200)

	for i := range 3 {
		code, err := status0(t, c, down.URL)
		require.NoError(t, err, "attempt %d", i+1)
		require.Equal(t, http.StatusServiceUnavailable, code)
	}
	require.Len(t, down.Hits(), 3)
	assert.Equal(t, gobreaker.StateOpen, state(t, b, down))

	// Open: rejected without touching the server.
	_, err := status0(t, c, down.URL)
	require.Error(t, err)
	te, ok := toolerr.From(err)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeCircuitOpen, te.Code)
	assert.True(t, te.Retryable)
	assert.Greater(t, te.RetryAfter, openFor/2, "about the time until half-open")
	assert.LessOrEqual(t, te.RetryAfter, openFor)
	require.NotNil(t, te.Upstream)
	assert.Contains(t, down.URL, te.Upstream.Vendor)
	assert.Len(t, down.Hits(), 3, "no request reached the server")

	// Another host is unaffected.
	code, err := status0(t, c, other.URL)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)

	// After OpenFor: half-open, one trial call, its success closes.
	time.Sleep(openFor + 50*time.Millisecond)
	down.setSteps(ok200)
	code, err = status0(t, c, down.URL)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.Len(t, down.Hits(), 1)
	assert.Equal(t, gobreaker.StateClosed, state(t, b, down))
}

func TestBreakerHalfOpenFailureReopens(t *testing.T) {
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 1, OpenFor: 50 * time.Millisecond})
	c := oneShot(b)
	down := newScripted(t, err503)
	_, err := status0(t, c, down.URL)
	require.NoError(t, err)
	assert.Equal(t, gobreaker.StateOpen, state(t, b, down))
	time.Sleep(80 * time.Millisecond)
	_, err = status0(t, c, down.URL) // the trial call fails
	require.NoError(t, err)
	assert.Equal(t, gobreaker.StateOpen, state(t, b, down))
	assert.Len(t, down.Hits(), 2)
}

func TestBreakerIgnoresClientErrors(t *testing.T) {
	for _, code := range []int{http.StatusBadRequest, http.StatusNotFound} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			b := NewBreakers(BreakerSettings{ConsecutiveFailures: 2, OpenFor: time.Minute})
			c := oneShot(b)
			srv := newScripted(t, status(code, `{"error":"nope"}`, "Content-Type", "application/json"))
			for range 10 {
				got, err := status0(t, c, srv.URL)
				require.NoError(t, err)
				require.Equal(t, code, got)
			}
			assert.Len(t, srv.Hits(), 10)
			assert.Equal(t, gobreaker.StateClosed, state(t, b, srv))
		})
	}
}

func TestBreakerCountsConsecutiveFailures(t *testing.T) {
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 3, OpenFor: time.Minute})
	c := oneShot(b)
	srv := newScripted(t, err503, err503, status(http.StatusNotFound, "no"), err503, err503, err503)
	for range 5 {
		_, err := status0(t, c, srv.URL)
		require.NoError(t, err)
	}
	assert.Equal(t, gobreaker.StateClosed, state(t, b, srv), "the 404 reset the count")
	_, err := status0(t, c, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, gobreaker.StateOpen, state(t, b, srv))
}

func TestBreakerOpeningMidCallReturnsLastResponse(t *testing.T) {
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 2, OpenFor: time.Minute})
	p := DefaultPolicy()
	p.MaxAttempts = 5
	p.Clock = &sleepClock{}
	c := &http.Client{Transport: Transport(nil, WithPolicy(p), WithBreakers(b))}
	srv := newScripted(t, err503)
	resp, body := send(t, c, get(t, srv.URL))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "down for a moment", body)
	assert.Len(t, srv.Hits(), 2, "the third attempt was stopped by the breaker")
}

func TestBreakerNetworkErrorsCountAndCancellationsDoNot(t *testing.T) {
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 2, OpenFor: time.Minute})
	c := oneShot(b)
	srv := newScripted(t, ok200)
	srv.Close() // refused from now on

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 3 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		require.NoError(t, err)
		_, err = c.Do(req)
		require.Error(t, err)
	}
	assert.Equal(t, gobreaker.StateClosed, state(t, b, srv), "cancelled calls are not counted")

	for range 2 {
		_, err := status0(t, c, srv.URL)
		require.True(t, toolerr.HasCode(err, toolerr.CodeUpstreamUnavailable), "%v", err)
	}
	_, err := status0(t, c, srv.URL)
	assert.True(t, toolerr.HasCode(err, toolerr.CodeCircuitOpen), "%v", err)
}

func TestBreakerVerdict(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(live)
	cancel()
	mk := func(code string) *toolerr.Error { return toolerr.Default().New(code, "") }
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  *toolerr.Error
		want verdict
	}{
		{"success", live, nil, verdictSuccess},
		{"transient", live, mk(toolerr.CodeUpstreamUnavailable), verdictFailure},
		{"timeout", live, mk(toolerr.CodeUpstreamTimeout), verdictFailure},
		{"validation", live, mk(toolerr.CodeValidationFailed), verdictSuccess},
		{"cancelled", live, mk(toolerr.CodeCancelled), verdictExcluded},
		{"caller gone", done, mk(toolerr.CodeUpstreamTimeout), verdictExcluded},
		{"internal", live, mk(toolerr.CodeInternal), verdictExcluded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, breakerVerdict(tc.ctx, tc.err))
		})
	}
}

func TestBreakersBounded(t *testing.T) {
	b := NewBreakers(BreakerSettings{})
	for i := range maxBreakerHosts + 10 {
		report, rejected := b.allow("host" + strconv.Itoa(i) + ".example")
		require.Nil(t, rejected)
		report(verdictSuccess)
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	assert.Len(t, b.hosts, maxBreakerHosts)
}

func TestNilBreakersAllow(t *testing.T) {
	var b *Breakers
	report, rejected := b.allow("x")
	require.Nil(t, rejected)
	assert.NotPanics(t, func() { report(verdictFailure) })
}
