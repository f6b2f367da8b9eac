package redisstore_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// watchedStore returns a store over a client of its own, closed (store,
// then client) when the test ends.
func watchedStore(t *testing.T, addr, prefix string, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	client := newClient(t, addr)
	s := redisstore.New(client, append([]redisstore.Option{redisstore.WithKeyPrefix(prefix)}, opts...)...)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// eventually waits until s.MayHaveRuns() is want.
func eventually(t *testing.T, s *redisstore.Store, want bool, msg string) {
	t.Helper()
	require.Eventually(t, func() bool { return s.MayHaveRuns() == want }, 5*time.Second, time.Millisecond, msg)
}

// TestMayHaveRunsAcrossStores: two stores over two clients of one
// server. Before it listens, a store says runs may be live; once its
// subscription is confirmed and the grace (0 here) has passed, it says
// none is. A failure counted through one is known to the other within a
// moment, and to itself at once, until the run's window and the margin
// have passed. A store under another key prefix hears nothing of it.
func TestMayHaveRunsAcrossStores(t *testing.T) {
	addr, _ := redistest.Start(t)
	prefix := uniquePrefix()
	a := watchedStore(t, addr, prefix, redisstore.WithRunsGrace(0))
	b := watchedStore(t, addr, prefix, redisstore.WithRunsGrace(0))
	other := watchedStore(t, addr, uniquePrefix(), redisstore.WithRunsGrace(0))
	assert.True(t, b.MayHaveRuns(), "not listening yet: runs may be live")
	for _, s := range []*redisstore.Store{a, b, other} {
		eventually(t, s, false, "listening, with no grace: no run")
	}

	_, err := a.AddFailure(t.Context(), "thrash:k", toolerr.CodeNotFound, 200*time.Millisecond)
	require.NoError(t, err)
	assert.True(t, a.MayHaveRuns(), "the store that counted the run knows it at once")
	eventually(t, b, true, "the other store hears of the run")
	assert.False(t, other.MayHaveRuns(), "another prefix is another set of runs")

	// The run lives 200 ms, plus the margin of a second.
	eventually(t, b, false, "the run's window and the margin passed")
	// a noted the run when its script returned, which may be after b
	// heard the script's announcement: a's view can end a moment later.
	eventually(t, a, false, "the run's window and the margin passed, for the store that counted it")
	f, err := b.Failures(t.Context(), "thrash:k")
	require.NoError(t, err)
	assert.Zero(t, f.Count, "the run expired in Redis too")
}

// TestMayHaveRunsGraceAndReconnect: a store says runs may be live for
// the grace period after its subscription is confirmed, and again after
// its subscription connection is killed and go-redis subscribes anew: a
// run announced in between may be live.
func TestMayHaveRunsGraceAndReconnect(t *testing.T) {
	addr, _ := redistest.Start(t)
	const grace = time.Second
	s := watchedStore(t, addr, uniquePrefix(), redisstore.WithRunsGrace(grace))
	start := time.Now()
	assert.True(t, s.MayHaveRuns())
	eventually(t, s, false, "the grace passed")
	assert.GreaterOrEqual(t, time.Since(start), grace, "not before the grace passed")

	admin := newClient(t, addr)
	killed, err := admin.Do(t.Context(), "CLIENT", "KILL", "TYPE", "pubsub").Int()
	require.NoError(t, err)
	require.Equal(t, 1, killed, "the store's subscription connection")
	eventually(t, s, true, "re-subscribed: the grace again")
	eventually(t, s, false, "the new grace passed")
}

// TestStoreCloseEndsTheWatch: Close ends the subscriber's goroutines, and
// the store then looks every call up (MayHaveRuns true) without listening
// again; closing the client without the store ends them too.
func TestStoreCloseEndsTheWatch(t *testing.T) {
	addr, _ := redistest.Start(t)
	client := newClient(t, addr)
	require.NoError(t, client.Ping(t.Context()).Err())
	before := runtime.NumGoroutine()

	s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithRunsGrace(0))
	eventually(t, s, false, "listening")
	assert.Greater(t, runtime.NumGoroutine(), before, "the subscriber runs")
	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "closing twice is no error")
	assert.True(t, s.MayHaveRuns(), "closed: every call is looked up")
	goroutinesBackTo(t, before, "Close ends the subscriber")
	assert.True(t, s.MayHaveRuns(), "a closed store does not listen again")
	f, err := s.AddFailure(t.Context(), "thrash:k", toolerr.CodeNotFound, time.Minute)
	require.NoError(t, err, "a closed store still counts")
	assert.Equal(t, 1, f.Count)

	own := newClient(t, addr)
	require.NoError(t, own.Ping(t.Context()).Err())
	before = runtime.NumGoroutine()
	unclosed := redisstore.New(own, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithRunsGrace(0))
	eventually(t, unclosed, false, "listening")
	require.NoError(t, own.Close())
	goroutinesBackTo(t, before, "the client's close ends the subscriber")
	assert.True(t, unclosed.MayHaveRuns())
}

// goroutinesBackTo waits until no more than n goroutines run (polled
// here: require.Eventually runs its condition in a goroutine of its own).
func goroutinesBackTo(t *testing.T, n int, msg string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%s: %d goroutines, %d before\n%s", msg, runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
	}
}

// TestThrashGuardAcrossIdleReplicas: two replicas whose stores heard of no
// run (their grace passed) run calls without a lookup; the identical call
// that failed twice on one is refused on the other once the announcement
// arrived, and a success there clears it.
func TestThrashGuardAcrossIdleReplicas(t *testing.T) {
	addr, _ := redistest.Start(t)
	prefix := uniquePrefix()
	sa := watchedStore(t, addr, prefix, redisstore.WithRunsGrace(0))
	sb := watchedStore(t, addr, prefix, redisstore.WithRunsGrace(0))
	a, b := newReplica(t, sa), newReplica(t, sb)
	eventually(t, sa, false, "a listens")
	eventually(t, sb, false, "b listens")

	status, _ := b.call(t, "Bearer agent-1", `{"id":"ord-9"}`)
	require.Equal(t, 201, status, "an idle replica runs the call")
	const failing = `{"id":"ord-9","fail":"NOT_FOUND"}`
	for range 2 {
		status, e := a.call(t, "Bearer agent-1", failing)
		require.Equal(t, 404, status)
		require.Equal(t, toolerr.CodeNotFound, e.Code)
	}
	eventually(t, sb, true, "b heard of the run")
	status, e := b.call(t, "Bearer agent-1", failing)
	require.Equal(t, 409, status)
	assert.Equal(t, toolerr.CodeRepeatedFailure, e.Code)
	assert.EqualValues(t, 1, b.runs.Load(), "the refused call did not run")
	status, _ = a.call(t, "Bearer agent-1", failing)
	assert.Equal(t, 409, status, "refused on the first replica too")
}

// TestThrashCallsIdleRedis: ThrashCalls over an idle store refuses the
// third identical failure too: the store that counted knows the run at
// once.
func TestThrashCallsIdleRedis(t *testing.T) {
	addr, _ := redistest.Start(t)
	s := watchedStore(t, addr, uniquePrefix(), redisstore.WithRunsGrace(0))
	eventually(t, s, false, "listening")
	tc := idempotency.NewThrashCalls(s)
	call := idempotency.ToolCall{Principal: "p", Tool: "get_order", Arguments: []byte(`{"id":"ord-9"}`)}
	ran := 0
	fail := func(t *testing.T) *toolerr.Error {
		return tc.Do(t.Context(), call, func(ctx context.Context) (*toolerr.Error, bool) {
			ran++
			return toolerr.Default().New(toolerr.CodeNotFound, ""), true
		})
	}
	require.Nil(t, fail(t))
	require.Nil(t, fail(t))
	refusal := fail(t)
	require.NotNil(t, refusal)
	assert.Equal(t, toolerr.CodeRepeatedFailure, refusal.Code)
	assert.Equal(t, 2, ran)
}

// TestMayHaveRunsWithoutChannelAccess: for an ACL user without access to
// the runs channel, AddFailure still counts, and the store, which can
// neither announce nor hear of runs, looks every call up.
func TestMayHaveRunsWithoutChannelAccess(t *testing.T) {
	addr, _ := redistest.Start(t)
	admin := newClient(t, addr)
	require.NoError(t, admin.Do(t.Context(), "ACL", "SETUSER", "nochannels", "on", ">pw", "~*", "+@all", "resetchannels").Err())
	limited := redis.NewClient(&redis.Options{Addr: addr, Username: "nochannels", Password: "pw", MaxRetries: -1})
	s := redisstore.New(limited, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithRunsGrace(0))
	t.Cleanup(func() {
		require.NoError(t, s.Close())
		_ = limited.Close()
	})
	assert.True(t, s.MayHaveRuns())
	f, err := s.AddFailure(t.Context(), "thrash:k", toolerr.CodeNotFound, time.Millisecond)
	require.NoError(t, err, "the count does not depend on the announcement")
	assert.Equal(t, 1, f.Count)
	time.Sleep(1200 * time.Millisecond) // past the run and the margin
	assert.True(t, s.MayHaveRuns(), "a store that cannot announce its runs trusts no view of them")
}
