package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest"
)

// newClient returns a client of the server at addr, closed when the test
// ends. Its short timeouts and no retries make a dead server an error
// within a second, never a hang.
func newClient(tb testing.TB, addr string) *redis.Client {
	tb.Helper()
	c := redis.NewClient(&redis.Options{
		Addr:          addr,
		DialTimeout:   500 * time.Millisecond,
		ReadTimeout:   500 * time.Millisecond,
		WriteTimeout:  500 * time.Millisecond,
		PoolTimeout:   2 * time.Second,
		MaxRetries:    -1,
		DialerRetries: 1,
	})
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

// prefixes makes key prefixes no two stores of a test run share.
var prefixes atomic.Int64

// uniquePrefix returns a fresh key prefix.
func uniquePrefix() string {
	return fmt.Sprintf("test:%d:", prefixes.Add(1))
}

// TestConformance runs the store conformance suite against a real server.
func TestConformance(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	storetest.Run(t, func(t *testing.T) idempotency.Store {
		return redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	})
}

// countingHook counts round trips: one per processed command, one per
// pipeline.
type countingHook struct {
	mu   sync.Mutex
	trip int
	cmds []string
}

// DialHook passes dials through.
func (h *countingHook) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook counts a command as one round trip.
func (h *countingHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.record(cmd)
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook counts a pipeline as one round trip.
func (h *countingHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.record(cmds...)
		return next(ctx, cmds)
	}
}

// record counts one round trip carrying cmds.
func (h *countingHook) record(cmds ...redis.Cmder) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.trip++
	for _, c := range cmds {
		h.cmds = append(h.cmds, c.Name())
	}
}

// take returns and resets the counts.
func (h *countingHook) take() (int, []string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n, cmds := h.trip, h.cmds
	h.trip, h.cmds = 0, nil
	return n, cmds
}

// TestRoundTrips proves that every method is one round trip once the
// server has the scripts cached, and at most two before.
func TestRoundTrips(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	hook := &countingHook{}
	client.AddHook(hook)
	s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	ctx := t.Context()
	resp := idempotency.Response{Status: 200, Body: []byte("ok")}

	// The connection's handshake (HELLO, CLIENT SETINFO) is not the
	// store's: open the connection first.
	require.NoError(t, client.Ping(ctx).Err())
	hook.take()

	// Cold: the first EVALSHA of each script gets NOSCRIPT and falls back
	// to EVAL.
	tok, err := s.Claim(ctx, "cold", "fp", time.Minute)
	require.NoError(t, err)
	n, cmds := hook.take()
	assert.Equal(t, []string{"evalsha", "eval"}, cmds)
	assert.Equal(t, 2, n)
	require.NoError(t, s.Release(ctx, "cold", tok.Token))
	_, _, err = s.Get(ctx, "cold")
	require.NoError(t, err)
	c, err := s.Claim(ctx, "cold", "fp", time.Minute)
	require.NoError(t, err)
	require.NoError(t, s.Complete(ctx, "cold", c.Token, resp, time.Minute))
	hook.take()

	var token uint64
	steps := []struct {
		name string
		call func() error
	}{
		{"Claim", func() error {
			c, err := s.Claim(ctx, "warm", "fp", time.Minute)
			token = c.Token
			return err
		}},
		{"Claim existing", func() error { _, err := s.Claim(ctx, "warm", "fp", time.Minute); return err }},
		{"Release", func() error { return s.Release(ctx, "warm", token) }},
		{"Claim again", func() error {
			c, err := s.Claim(ctx, "warm", "fp", time.Minute)
			token = c.Token
			return err
		}},
		{"Complete", func() error { return s.Complete(ctx, "warm", token, resp, time.Minute) }},
		{"Get", func() error { _, _, err := s.Get(ctx, "warm"); return err }},
		{"Get missing", func() error { _, _, err := s.Get(ctx, "nothing"); return err }},
		{"Complete lost", func() error {
			if err := s.Complete(ctx, "warm", token, resp, time.Minute); !errors.Is(err, idempotency.ErrLostClaim) {
				return fmt.Errorf("want ErrLostClaim, got %v", err)
			}
			return nil
		}},
	}
	for _, st := range steps {
		require.NoError(t, st.call(), st.name)
		n, cmds := hook.take()
		assert.Equal(t, 1, n, "%s: round trips (commands %v)", st.name, cmds)
		assert.Equal(t, []string{"evalsha"}, cmds, st.name)
	}
}

// TestConcurrentClaimsReplicas: 200 goroutines spread over several
// clients (as several replicas would be) claim one key at once; exactly
// one wins, every other sees the winner's token.
func TestConcurrentClaimsReplicas(t *testing.T) {
	addr, _ := redistest.Start(t)
	prefix := uniquePrefix()
	stores := make([]*redisstore.Store, 4)
	for i := range stores {
		// 200 claims at once: a small pool, dialled with patience, so
		// that a loaded machine's slow accepts are not a dial timeout.
		c := redis.NewClient(&redis.Options{Addr: addr, PoolSize: 8, DialTimeout: 5 * time.Second,
			ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second, PoolTimeout: 10 * time.Second})
		t.Cleanup(func() { _ = c.Close() })
		stores[i] = redisstore.New(c, redisstore.WithKeyPrefix(prefix))
	}
	for round := range 3 {
		key := fmt.Sprintf("race-%d", round)
		const n = 200
		claims := make([]idempotency.Claim, n)
		errs := make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				claims[i], errs[i] = stores[i%len(stores)].Claim(t.Context(), key, "fp", time.Minute)
			})
		}
		close(start)
		wg.Wait()
		require.NoError(t, errors.Join(errs...))
		var won []uint64
		for _, c := range claims {
			if c.Claimed {
				won = append(won, c.Token)
			}
		}
		require.Len(t, won, 1, "round %d", round)
		for _, c := range claims {
			if !c.Claimed {
				assert.Equal(t, won[0], c.Existing.Token)
			}
		}
	}
}

// TestServerDown: once the server is gone every method fails promptly
// with an error that is not ErrLostClaim.
func TestServerDown(t *testing.T) {
	addr, stop := redistest.Start(t)
	s := redisstore.New(newClient(t, addr), redisstore.WithKeyPrefix(uniquePrefix()))
	c, err := s.Claim(t.Context(), "down", "fp", time.Minute)
	require.NoError(t, err)
	require.True(t, c.Claimed)

	stop()
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Claim", func(ctx context.Context) error { _, err := s.Claim(ctx, "down-2", "fp", time.Minute); return err }},
		{"Complete", func(ctx context.Context) error {
			return s.Complete(ctx, "down", c.Token, idempotency.Response{Status: 200}, time.Minute)
		}},
		{"Release", func(ctx context.Context) error { return s.Release(ctx, "down", c.Token) }},
		{"Get", func(ctx context.Context) error { _, _, err := s.Get(ctx, "down"); return err }},
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			began := time.Now()
			err := tc.call(ctx)
			require.Error(t, err)
			assert.NotErrorIs(t, err, idempotency.ErrLostClaim)
			assert.NotErrorIs(t, err, context.DeadlineExceeded, "must fail by itself, not by the test's deadline")
			assert.Less(t, time.Since(began), 3*time.Second, "must not hang")
		})
	}
}

// TestMiddlewareSameKeyAtOnce: 200 requests with one key at once through
// the idempotency middleware over a real server run the handler once.
func TestMiddlewareSameKeyAtOnce(t *testing.T) {
	addr, _ := redistest.Start(t)
	s := redisstore.New(newClient(t, addr), redisstore.WithKeyPrefix(uniquePrefix()))
	storetest.SameKeyAtOnce(t, s, 200)
}

// TestToolCalls runs the suite of idempotency.ToolCalls over a real
// server.
func TestToolCalls(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	storetest.RunToolCalls(t, func(t *testing.T) idempotency.Store {
		return redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	})
}
