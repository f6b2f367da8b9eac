package redisstore_test

import (
	"context"
	"errors"
	"net"
	"os"
	"sync/atomic"
	"syscall"
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

// ackTimeout is the WAIT timeout of the tests' stores with replica acks.
const ackTimeout = 100 * time.Millisecond

// startPair starts a primary with one replica in sync, and returns the
// primary's address and the replica's process.
func startPair(t testing.TB) (primary string, replica *os.Process) {
	t.Helper()
	primary, _ = redistest.Start(t)
	_, replica = redistest.StartReplica(t, primary)
	redistest.AwaitInfo(t, primary, "replication", "connected_slaves:1")
	return primary, replica
}

// stall stops the replica's process until the test ends or resume is
// called.
func stall(t *testing.T, replica *os.Process) (resume func()) {
	t.Helper()
	require.NoError(t, replica.Signal(syscall.SIGSTOP))
	resume = func() { _ = replica.Signal(syscall.SIGCONT) }
	t.Cleanup(resume)
	return resume
}

// TestConformanceReplicaAck runs the conformance suite, unchanged, against
// a store with WithReplicaAck(1) on a primary with one replica.
func TestConformanceReplicaAck(t *testing.T) {
	primary, _ := startPair(t)
	client := newClient(t, primary)
	storetest.Run(t, func(t *testing.T) idempotency.Store {
		return redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(1, ackTimeout))
	})
}

// writeCounter counts the writes on the connections of a client: one
// write is one request of a round trip (go-redis flushes a command, or a
// whole pipeline, in one write, and reads the answers before it writes
// again).
type writeCounter struct{ writes atomic.Int64 }

// DialHook wraps the connections the client dials.
func (w *writeCounter) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countedConn{Conn: c, writes: &w.writes}, nil
	}
}

// ProcessHook passes commands through.
func (w *writeCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

// ProcessPipelineHook passes pipelines through.
func (w *writeCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// countedConn is a connection that counts its writes.
type countedConn struct {
	net.Conn
	writes *atomic.Int64
}

// Write counts one write.
func (c countedConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// TestReplicaAckRoundTrips: with WithReplicaAck a Claim and a Complete
// are still one round trip each (the script and WAIT in one pipeline, one
// network write); Release and Get send no WAIT. Before the server has the
// scripts cached, the EVALSHA+WAIT pipeline is followed by EVAL+WAIT.
func TestReplicaAckRoundTrips(t *testing.T) {
	primary, _ := startPair(t)
	client := newClient(t, primary)
	hook, writes := &countingHook{}, &writeCounter{}
	client.AddHook(writes)
	client.AddHook(hook)
	s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(1, ackTimeout))
	ctx := t.Context()
	resp := idempotency.Response{Status: 200, Body: []byte("ok")}
	// The handshakes (HELLO, CLIENT SETINFO) of the connections are not
	// the store's: open them first, one for commands and one for
	// pipelines (this go-redis keeps pipelines' connections apart).
	require.NoError(t, client.Ping(ctx).Err())
	_, err := client.Pipelined(ctx, func(p redis.Pipeliner) error { return p.Ping(ctx).Err() })
	require.NoError(t, err)
	hook.take()
	writes.writes.Store(0)

	c, err := s.Claim(ctx, "cold", "fp", time.Minute)
	require.NoError(t, err)
	require.True(t, c.Claimed)
	n, cmds := hook.take()
	assert.Equal(t, []string{"evalsha", "wait", "eval", "wait"}, cmds, "cold: NOSCRIPT, then EVAL")
	assert.Equal(t, 2, n)
	assert.EqualValues(t, 2, writes.writes.Swap(0))
	require.NoError(t, s.Complete(ctx, "cold", c.Token, resp, time.Minute)) // caches the other scripts
	require.ErrorIs(t, s.Release(ctx, "cold", c.Token), idempotency.ErrLostClaim)
	_, _, err = s.Get(ctx, "cold")
	require.NoError(t, err)
	hook.take()
	writes.writes.Store(0)

	var token uint64
	steps := []struct {
		name string
		call func() error
		cmds []string
	}{
		{"Claim", func() error {
			c, err := s.Claim(ctx, "warm", "fp", time.Minute)
			token = c.Token
			return err
		}, []string{"evalsha", "wait"}},
		{"Claim existing", func() error { _, err := s.Claim(ctx, "warm", "fp", time.Minute); return err }, []string{"evalsha", "wait"}},
		{"Complete", func() error { return s.Complete(ctx, "warm", token, resp, time.Minute) }, []string{"evalsha", "wait"}},
		{"Get", func() error { _, _, err := s.Get(ctx, "warm"); return err }, []string{"evalsha"}},
		{"Release", func() error {
			if err := s.Release(ctx, "warm", token); !errors.Is(err, idempotency.ErrLostClaim) {
				return errors.Join(errors.New("want ErrLostClaim"), err)
			}
			return nil
		}, []string{"evalsha"}},
	}
	for _, st := range steps {
		require.NoError(t, st.call(), st.name)
		n, cmds := hook.take()
		assert.Equal(t, 1, n, "%s: round trips (commands %v)", st.name, cmds)
		assert.Equal(t, st.cmds, cmds, st.name)
		assert.EqualValues(t, 1, writes.writes.Swap(0), "%s: network writes", st.name)
	}
}

// TestReplicaAckStalled: with the replica stalled, a claim is refused with
// ErrNotReplicated after about the ack timeout and leaves no claim behind;
// a completion of a claim taken before the stall returns ErrNotReplicated
// and stays Completed on the primary. Without the option both succeed.
func TestReplicaAckStalled(t *testing.T) {
	primary, replica := startPair(t)
	client := newClient(t, primary)
	prefix := uniquePrefix()
	acked := redisstore.New(client, redisstore.WithKeyPrefix(prefix), redisstore.WithReplicaAck(1, ackTimeout))
	plain := redisstore.New(client, redisstore.WithKeyPrefix(prefix))
	ctx := t.Context()
	before, err := acked.Claim(ctx, "before", "fp", time.Minute)
	require.NoError(t, err)
	require.True(t, before.Claimed)

	stall(t, replica)
	began := time.Now()
	_, err = acked.Claim(ctx, "during", "fp", time.Minute)
	require.ErrorIs(t, err, redisstore.ErrNotReplicated)
	assert.GreaterOrEqual(t, time.Since(began), ackTimeout, "WAIT waited its timeout")
	_, ok, err := plain.Get(ctx, "during")
	require.NoError(t, err)
	assert.False(t, ok, "the unacknowledged claim was released")

	err = acked.Complete(ctx, "before", before.Token, idempotency.Response{Status: 201}, time.Minute)
	require.ErrorIs(t, err, redisstore.ErrNotReplicated)
	assert.NotErrorIs(t, err, idempotency.ErrLostClaim)
	rec, ok, err := plain.Get(ctx, "before")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, idempotency.Completed, rec.State, "the completion stays on the primary")

	err = acked.Complete(ctx, "during", 1, idempotency.Response{Status: 201}, time.Minute)
	assert.ErrorIs(t, err, idempotency.ErrLostClaim, "a lost claim is reported as such, not as unreplicated")

	c, err := plain.Claim(ctx, "plain", "fp", time.Minute)
	require.NoError(t, err, "without the option the primary alone acknowledges")
	assert.True(t, c.Claimed)
}

// TestReplicaAckClients: the option routes WAIT to the key's primary on a
// Ring, refuses clients it cannot route, and is off for replicas < 1.
func TestReplicaAckClients(t *testing.T) {
	primary, _ := startPair(t)
	ctx := t.Context()

	t.Run("ring", func(t *testing.T) {
		ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": primary}, MaxRetries: -1})
		t.Cleanup(func() { _ = ring.Close() })
		s := redisstore.New(ring, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(1, time.Second))
		c, err := s.Claim(ctx, "k", "fp", time.Minute)
		require.NoError(t, err)
		require.True(t, c.Claimed)
		require.NoError(t, s.Complete(ctx, "k", c.Token, idempotency.Response{Status: 201}, time.Minute))
	})

	t.Run("more replicas than there are", func(t *testing.T) {
		s := redisstore.New(newClient(t, primary), redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(2, ackTimeout))
		_, err := s.Claim(ctx, "k", "fp", time.Minute)
		require.ErrorIs(t, err, redisstore.ErrNotReplicated)
		assert.Contains(t, err.Error(), "1 of 2 replicas")
	})

	t.Run("unsupported client", func(t *testing.T) {
		s := redisstore.New(otherClient{newClient(t, primary)}, redisstore.WithReplicaAck(1, time.Second))
		_, err := s.Claim(ctx, "k", "fp", time.Minute)
		require.ErrorIs(t, err, redisstore.ErrReplicaAckUnsupported)
		err = s.Complete(ctx, "k", 1, idempotency.Response{Status: 201}, time.Minute)
		require.ErrorIs(t, err, redisstore.ErrReplicaAckUnsupported)
	})

	t.Run("off below one replica", func(t *testing.T) {
		hook := &countingHook{}
		client := newClient(t, primary)
		client.AddHook(hook)
		s := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(1, time.Second), redisstore.WithReplicaAck(0, time.Second))
		_, err := s.Claim(ctx, "k", "fp", time.Minute)
		require.NoError(t, err)
		_, cmds := hook.take()
		assert.NotContains(t, cmds, "wait")
	})
}

// otherClient is a UniversalClient the store cannot route WAIT for.
type otherClient struct{ *redis.Client }
