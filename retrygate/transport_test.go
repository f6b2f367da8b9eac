package retrygate

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// sleepClock records the waits it is asked for and returns at once; its
// Now is the real time plus the waits so far, so real deadlines still hold.
type sleepClock struct {
	mu     sync.Mutex
	sleeps []time.Duration
	total  time.Duration
}

func (c *sleepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.total)
}

func (c *sleepClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.total += d
	c.mu.Unlock()
	return ctx.Err()
}

func (c *sleepClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// hit is what the scripted server saw of one request.
type hit struct {
	header http.Header
	body   string
}

// scripted is an httptest server that answers its script in order (the
// last step repeats) and records each request and each new connection.
type scripted struct {
	*httptest.Server
	mu       sync.Mutex
	steps    []http.HandlerFunc
	hits     []hit
	newConns atomic.Int32
}

func newScripted(t *testing.T, steps ...http.HandlerFunc) *scripted {
	t.Helper()
	s := &scripted{steps: steps}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.newConns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.hits)
	s.hits = append(s.hits, hit{header: r.Header.Clone(), body: string(body)})
	step := s.steps[min(n, len(s.steps)-1)]
	s.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body)) // readable again by the step
	step(w, r)
}

// setSteps replaces the script; the hit count goes on.
func (s *scripted) setSteps(steps ...http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits = s.hits[:0]
	s.steps = steps
}

func (s *scripted) Hits() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]hit(nil), s.hits...)
}

func (s *scripted) headers(name string) []string {
	var out []string
	for _, h := range s.Hits() {
		out = append(out, h.header.Get(name))
	}
	return out
}

// status answers code with a small JSON or text body and extra headers
// given as name, value pairs.
func status(code int, body string, kv ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(kv); i += 2 {
			w.Header().Set(kv[i], kv[i+1])
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

var (
	ok200  = status(http.StatusOK, "ok")
	err503 = status(http.StatusServiceUnavailable, "down for a moment")
)

// client returns an http.Client over a Transport with a recording clock.
func client(clk *sleepClock, opts ...Option) *http.Client {
	p := DefaultPolicy()
	p.Clock = clk
	return &http.Client{Transport: Transport(nil, append([]Option{WithPolicy(p)}, opts...)...)}
}

// send does one request and returns the response with its body read.
func send(t *testing.T, c *http.Client, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func get(t *testing.T, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	return req
}

func TestTransportRetriesTransient(t *testing.T) {
	srv := newScripted(t, err503, ok200)
	clk := &sleepClock{}
	resp, body := send(t, client(clk), get(t, srv.URL))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "ok", body)
	assert.Len(t, srv.Hits(), 2)
	assert.Len(t, clk.Sleeps(), 1)
}

func TestTransportHonoursRetryAfter(t *testing.T) {
	srv := newScripted(t, status(http.StatusTooManyRequests, "slow down", "Retry-After", "1"), ok200)
	clk := &sleepClock{}
	resp, _ := send(t, client(clk), get(t, srv.URL))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, srv.Hits(), 2)
	assert.Equal(t, []time.Duration{time.Second}, clk.Sleeps())
}

func TestTransportDoesNotRetryClientErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		code int
		body string
	}{
		{"400", http.StatusBadRequest, `{"error":{"message":"amount must be positive","param":"amount"}}`},
		{"404", http.StatusNotFound, `{"error":"no such customer"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScripted(t, status(tc.code, tc.body, "Content-Type", "application/json"))
			clk := &sleepClock{}
			resp, body := send(t, client(clk), get(t, srv.URL))
			assert.Equal(t, tc.code, resp.StatusCode, "the vendor's response comes back")
			assert.Equal(t, tc.body, body, "its body intact")
			assert.Len(t, srv.Hits(), 1)
			assert.Empty(t, clk.Sleeps())
		})
	}
}

func TestTransportPostWithoutKeyIsSentOnce(t *testing.T) {
	srv := newScripted(t, err503, ok200)
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"amount":5}`))
	require.NoError(t, err)
	resp, body := send(t, client(&sleepClock{}), req)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "down for a moment", body)
	assert.Len(t, srv.Hits(), 1)
}

func TestTransportPostWithKeyKeepsTheKey(t *testing.T) {
	srv := newScripted(t, err503, status(http.StatusBadGateway, "bad gateway"), ok200)
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"amount":5}`))
	require.NoError(t, err)
	req.Header.Set("Idempotency-Key", "key-1")
	resp, _ := send(t, client(&sleepClock{}), req)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, []string{"key-1", "key-1", "key-1"}, srv.headers("Idempotency-Key"))
}

func TestTransportCustomIdempotencyHeader(t *testing.T) {
	srv := newScripted(t, status(http.StatusGatewayTimeout, "timeout"), ok200)
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("X-Request-Key", "k-9")
	resp, _ := send(t, client(&sleepClock{}, WithIdempotencyHeader("X-Request-Key")), req)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a keyed 504 of unknown outcome is retried")
	assert.Equal(t, []string{"k-9", "k-9"}, srv.headers("X-Request-Key"))
	assert.Equal(t, []string{"", ""}, srv.headers("Idempotency-Key"), "no foreign header is sent")
}

type toolCallKey struct{}

func TestTransportKeyFromContext(t *testing.T) {
	srv := newScripted(t, err503, err503, ok200)
	keyOf := func(ctx context.Context) (string, bool) {
		k, ok := ctx.Value(toolCallKey{}).(string)
		return k, ok
	}
	ctx := context.WithValue(context.Background(), toolCallKey{}, "call-42")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"to":"x"}`))
	require.NoError(t, err)
	resp, _ := send(t, client(&sleepClock{}, WithKeyFromContext(keyOf)), req)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, []string{"call-42", "call-42", "call-42"}, srv.headers("Idempotency-Key"))
	assert.Empty(t, req.Header.Get("Idempotency-Key"), "the caller's request is not modified")
}

func TestTransportRewindsBody(t *testing.T) {
	const payload = `{"name":"a fairly long body that must arrive whole on every attempt"}`
	// Each step checks the whole body: a short one gets 422, not retried.
	checked := func(next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if b, _ := io.ReadAll(r.Body); string(b) != payload {
				http.Error(w, "body mismatch", http.StatusUnprocessableEntity)
				return
			}
			next(w, r)
		}
	}
	srv := newScripted(t, checked(err503), checked(err503), checked(ok200))
	req, err := http.NewRequest(http.MethodPut, srv.URL, bytes.NewReader([]byte(payload)))
	require.NoError(t, err)
	require.NotNil(t, req.GetBody)
	resp, _ := send(t, client(&sleepClock{}), req)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	hits := srv.Hits()
	require.Len(t, hits, 3)
	for i, h := range hits {
		assert.Equal(t, payload, h.body, "attempt %d", i+1)
	}
}

func TestTransportBodyWithoutGetBodyIsSentOnce(t *testing.T) {
	srv := newScripted(t, err503, ok200)
	req, err := http.NewRequest(http.MethodPut, srv.URL, io.NopCloser(strings.NewReader("once")))
	require.NoError(t, err)
	require.Nil(t, req.GetBody)
	resp, _ := send(t, client(&sleepClock{}), req)
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	hits := srv.Hits()
	require.Len(t, hits, 1)
	assert.Equal(t, "once", hits[0].body)
}

func TestTransportDeadlineShorterThanRetryAfter(t *testing.T) {
	srv := newScripted(t, status(http.StatusServiceUnavailable, "maintenance", "Retry-After", "30"), ok200)
	clk := &sleepClock{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	resp, body := send(t, client(clk), req)
	assert.Less(t, time.Since(start), time.Second, "returned at once")
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "30", resp.Header.Get("Retry-After"), "the caller can still schedule the retry")
	assert.Equal(t, "maintenance", body)
	assert.Len(t, srv.Hits(), 1)
	assert.Empty(t, clk.Sleeps())
}

func TestTransportAttemptTimeout(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	srv := newScripted(t, slow, ok200)
	start := time.Now()
	resp, body := send(t, client(&sleepClock{}, WithAttemptTimeout(100*time.Millisecond)), get(t, srv.URL))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "ok", body, "the body of the attempt that succeeded reads whole")
	assert.Len(t, srv.Hits(), 2)
	assert.Less(t, time.Since(start), 3*time.Second)
}

func TestTransportAttemptHeader(t *testing.T) {
	srv := newScripted(t, err503, err503, ok200)
	resp, _ := send(t, client(&sleepClock{}, WithAttemptHeader("X-Attempt")), get(t, srv.URL))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, []string{"1", "2", "3"}, srv.headers("X-Attempt"))
}

func TestTransportLastFailureIsReturned(t *testing.T) {
	srv := newScripted(t, status(http.StatusServiceUnavailable, "still down", "X-Vendor-Request-Id", "req_1"))
	resp, body := send(t, client(&sleepClock{}), get(t, srv.URL))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "still down", body)
	assert.Equal(t, "req_1", resp.Header.Get("X-Vendor-Request-Id"))
	assert.Len(t, srv.Hits(), 3)
}

func TestTransportNetworkErrorWithoutResponse(t *testing.T) {
	srv := httptest.NewServer(ok200)
	url := srv.URL
	srv.Close() // nothing listens: connection refused
	_, err := client(&sleepClock{}, WithoutBreaker()).Get(url)
	require.Error(t, err)
	assert.Equal(t, 3, Attempts(err))
	te, ok := toolerr.From(err)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, te.Code)
	require.NotNil(t, te.Upstream)
	assert.Equal(t, "127.0.0.1", te.Upstream.Vendor)
}

func TestTransportRetriesDroppedConnection(t *testing.T) {
	hangUp := func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = conn.Close()
		}
	}
	srv := newScripted(t, hangUp, ok200)
	resp, _ := send(t, client(&sleepClock{}), get(t, srv.URL))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, srv.Hits(), 2)
}

func TestTransportReusesConnections(t *testing.T) {
	big := strings.Repeat("x", 100<<10) // longer than the buffered part
	for _, tc := range []struct {
		name string
		fail http.HandlerFunc
	}{
		{"small body", err503},
		{"large body", status(http.StatusServiceUnavailable, big)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScripted(t, tc.fail, ok200)
			c := client(&sleepClock{})
			for range 5 {
				srv.setSteps(tc.fail, ok200)
				resp, body := send(t, c, get(t, srv.URL))
				require.Equal(t, http.StatusOK, resp.StatusCode)
				require.Equal(t, "ok", body)
			}
			assert.Equal(t, int32(1), srv.newConns.Load(), "failed bodies are drained and closed, so one connection serves all")
			c.CloseIdleConnections()
		})
	}
}

func TestTransportLargeFailedBodyReturnedWhole(t *testing.T) {
	big := strings.Repeat("y", 100<<10)
	srv := newScripted(t, status(http.StatusServiceUnavailable, big))
	resp, body := send(t, client(&sleepClock{}), get(t, srv.URL))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, big, body)
	assert.Len(t, srv.Hits(), 3)
}

func TestTransportCancelledContext(t *testing.T) {
	srv := newScripted(t, ok200)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	_, err = client(&sleepClock{}).Do(req)
	require.Error(t, err)
	assert.True(t, toolerr.HasCode(err, toolerr.CodeCancelled), "%v", err)
	assert.Empty(t, srv.Hits())
}
