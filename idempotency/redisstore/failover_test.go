package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
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

// Sizes of the failover scenario.
const (
	// healthyKeys are delivered, twice each, while the replica follows.
	healthyKeys = 20
	// stalledKeys are first sent while the replica is stalled and cut off.
	stalledKeys = 20
	// deliverWithin bounds the retries of one delivery.
	deliverWithin = 10 * time.Second
)

// TestFailover is issue 16's scenario with real processes on loopback: a
// primary with one replica; the replica stalls and its link drops; the
// primary takes claims of 20 keys; it is killed; the replica is promoted
// (and given a replica of its own); the clients' retries of the same keys
// go on against it. Without WithReplicaAck the 20 keys run twice; with it
// none does, and the claims tried during the stall are refused with
// IDEMPOTENCY_UNAVAILABLE.
//
// The stall is SIGSTOP of the replica plus CLIENT KILL of its link on the
// primary. SIGSTOP alone (or DEBUG SLEEP, CLIENT PAUSE) does not lose
// anything on loopback: the primary's stream waits in the stopped
// replica's socket buffer, and the replica applies it when it resumes,
// before it sees the primary gone. A dropped link is what loses writes.
func TestFailover(t *testing.T) {
	t.Run("without replica ack", func(t *testing.T) {
		f := runFailover(t, nil)
		dups := f.duplicates()
		t.Logf("without WithReplicaAck: %d of %d stalled keys and %d keys in all ran twice", f.stalledDuplicates(), stalledKeys, len(dups))
		for k, code := range f.firstAnswer {
			assert.Equal(t, "201", code, "%s: the primary acknowledged the claim during the stall", k)
		}
		assert.Equal(t, stalledKeys, f.stalledDuplicates(), "every key claimed during the stall runs again after the failover: %v", dups)
		assert.Len(t, dups, stalledKeys, "keys claimed before the stall were replicated: %v", dups)
	})
	t.Run("with replica ack", func(t *testing.T) {
		f := runFailover(t, []redisstore.Option{redisstore.WithReplicaAck(1, 100*time.Millisecond)})
		t.Logf("with WithReplicaAck(1, 100ms): %d keys ran twice; first answers during the stall: %v", len(f.duplicates()), f.firstAnswerCounts())
		assert.Empty(t, f.duplicates(), "no key runs twice")
		for k, code := range f.firstAnswer {
			assert.Equal(t, "503 "+toolerr.CodeIdempotencyUnavailable, code, "%s: refused during the stall", k)
			assert.Zero(t, f.runsAtKill[k], "%s: never ran during the stall", k)
			assert.Equal(t, 1, f.runs[k], "%s: ran once, after the failover", k)
		}
	})
}

// failover is what one run of the scenario observed.
type failover struct {
	mu          sync.Mutex
	runs        map[string]int    // executions per key
	firstAnswer map[string]string // stalled key: status (and code) of its first answer
	runsAtKill  map[string]int    // runs of the stalled keys when the primary was killed
}

// duplicates returns the keys that ran more than once.
func (f *failover) duplicates() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	d := map[string]int{}
	for k, n := range f.runs {
		if n > 1 {
			d[k] = n
		}
	}
	return d
}

// stalledDuplicates counts the stalled keys that ran exactly twice.
func (f *failover) stalledDuplicates() int {
	n := 0
	for k := range f.firstAnswer {
		if f.runs[k] == 2 {
			n++
		}
	}
	return n
}

// firstAnswerCounts counts the first answers of the stalled keys.
func (f *failover) firstAnswerCounts() map[string]int {
	c := map[string]int{}
	for _, a := range f.firstAnswer {
		c[a]++
	}
	return c
}

// runFailover runs the scenario with a store with opts, and returns what
// happened once every delivery ended.
func runFailover(t *testing.T, opts []redisstore.Option) *failover {
	primary, killPrimary := redistest.Start(t)
	replica, replicaProc := redistest.StartReplica(t, primary)
	redistest.AwaitInfo(t, primary, "replication", "connected_slaves:1")

	// The store's client dials whichever server is the primary now.
	var current atomic.Value
	current.Store(primary)
	client := redis.NewClient(&redis.Options{
		Dialer: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", current.Load().(string))
		},
		DialTimeout:  time.Second,
		ReadTimeout:  2 * time.Second,
		WriteTimeout: 2 * time.Second,
		MaxRetries:   -1,
	})
	t.Cleanup(func() { _ = client.Close() })
	store := redisstore.New(client, append([]redisstore.Option{redisstore.WithKeyPrefix(uniquePrefix())}, opts...)...)

	f := &failover{runs: map[string]int{}, firstAnswer: map[string]string{}}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.runs[r.Header.Get("Idempotency-Key")]++
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1"}`)
	})
	h := idempotency.Middleware(store, idempotency.WithLogger(quietLog),
		idempotency.WithLease(time.Second), idempotency.WithStoreTimeout(2*time.Second))(handler)

	// deliver sends key until the answer is neither 503 nor 409 (both
	// retryable), as an agent retries; first gets the first answer.
	deliver := func(key string, first func(answer string)) {
		deadline := time.Now().Add(deliverWithin)
		for {
			rec := post(h, key)
			answer := fmt.Sprint(rec.Code)
			if rec.Code >= 400 {
				var body struct{ Code string }
				_ = json.Unmarshal(rec.Body.Bytes(), &body)
				answer += " " + body.Code
			}
			if first != nil {
				first(answer)
				first = nil
			}
			if rec.Code != http.StatusServiceUnavailable && rec.Code != http.StatusConflict {
				assert.Equal(t, http.StatusCreated, rec.Code, "%s: %s", key, rec.Body)
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s: still %s after %v", key, answer, deliverWithin)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}

	// Healthy: keys delivered twice each from several goroutines, then
	// wait until the replica has everything the primary has.
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range healthyKeys / 4 {
				key := fmt.Sprintf("healthy-%d-%d", g, i)
				deliver(key, nil)
				deliver(key, nil)
			}
		})
	}
	wg.Wait()
	awaitCaughtUp(t, primary, replica)

	stallAndCut(t, primary, replicaProc)

	// Stalled: one client per key; each retries until answered, then,
	// after the failover, sends the key again (its answer was lost).
	failedOver := make(chan struct{})
	var answered sync.WaitGroup
	answered.Add(stalledKeys)
	for i := range stalledKeys {
		key := fmt.Sprintf("stalled-%d", i)
		wg.Go(func() {
			deliver(key, func(a string) {
				f.mu.Lock()
				f.firstAnswer[key] = a
				f.mu.Unlock()
				answered.Done()
			})
			<-failedOver
			deliver(key, nil)
		})
	}
	answered.Wait()
	f.mu.Lock()
	f.runsAtKill = map[string]int{}
	for k := range f.firstAnswer {
		f.runsAtKill[k] = f.runs[k]
	}
	f.mu.Unlock()

	// Fail over: kill the primary, resume and promote the replica, give it
	// a replica of its own (WithReplicaAck(1) needs one), point the
	// clients at it.
	killPrimary()
	promote(t, replica, replicaProc)
	current.Store(replica)
	redistest.StartReplica(t, replica)
	close(failedOver)

	// The retries of every key go on against the new primary.
	for g := range 4 {
		wg.Go(func() {
			for i := range healthyKeys / 4 {
				deliver(fmt.Sprintf("healthy-%d-%d", g, i), nil)
			}
		})
	}
	wg.Wait()
	return f
}

// awaitCaughtUp waits until the replica acknowledged the primary's whole
// replication stream.
func awaitCaughtUp(t *testing.T, primary, replica string) {
	t.Helper()
	require.Eventually(t, func() bool {
		want, err := redistest.InfoField(primary, "replication", "master_repl_offset")
		if err != nil {
			return false
		}
		got, err := redistest.InfoField(replica, "replication", "slave_repl_offset")
		return err == nil && got == want
	}, 10*time.Second, 5*time.Millisecond, "the replica must catch up with the primary")
}

// stallAndCut stops the replica's process (SIGSTOP) and drops its link on
// the primary, and waits until the primary has no replica.
func stallAndCut(t *testing.T, primary string, replica *os.Process) {
	t.Helper()
	require.NoError(t, replica.Signal(syscall.SIGSTOP))
	t.Cleanup(func() { _ = replica.Signal(syscall.SIGCONT) })
	admin := redis.NewClient(&redis.Options{Addr: primary, MaxRetries: -1})
	defer func() { _ = admin.Close() }()
	require.NoError(t, admin.Do(t.Context(), "CLIENT", "KILL", "TYPE", "replica").Err())
	redistest.AwaitInfo(t, primary, "replication", "connected_slaves:0")
}

// promote resumes the stalled replica (its primary is gone) and makes it a
// primary.
func promote(t *testing.T, replica string, proc *os.Process) {
	t.Helper()
	require.NoError(t, proc.Signal(syscall.SIGCONT))
	admin := redis.NewClient(&redis.Options{Addr: replica, MaxRetries: -1})
	defer func() { _ = admin.Close() }()
	require.NoError(t, admin.Do(t.Context(), "REPLICAOF", "NO", "ONE").Err())
	redistest.AwaitInfo(t, replica, "replication", "role:master")
}

// TestFailoverLostCompletion is the window WithReplicaAck leaves: a claim
// acknowledged by the replica, whose completion is not (the replica
// stalled while the request ran), is InFlight on the promoted replica: its
// retry is refused as in progress until the lease lapses, then claims the
// key again: the request would run twice.
func TestFailoverLostCompletion(t *testing.T) {
	primary, killPrimary := redistest.Start(t)
	replica, proc := redistest.StartReplica(t, primary)
	prefix := uniquePrefix()
	const lease = 2 * time.Second
	s := redisstore.New(newClient(t, primary), redisstore.WithKeyPrefix(prefix), redisstore.WithReplicaAck(1, ackTimeout))
	ctx := t.Context()
	c, err := s.Claim(ctx, "k", "fp", lease)
	require.NoError(t, err)
	require.True(t, c.Claimed, "the replica acknowledged the claim")

	stallAndCut(t, primary, proc)
	err = s.Complete(ctx, "k", c.Token, idempotency.Response{Status: 201}, time.Minute)
	require.ErrorIs(t, err, redisstore.ErrNotReplicated)
	killPrimary()
	promote(t, replica, proc)

	promoted := redisstore.New(newClient(t, replica), redisstore.WithKeyPrefix(prefix))
	again, err := promoted.Claim(ctx, "k", "fp", lease)
	require.NoError(t, err)
	require.False(t, again.Claimed, "the promoted replica has the claim")
	assert.Equal(t, idempotency.InFlight, again.Existing.State, "but not the completion")
	require.Eventually(t, func() bool {
		again, err = promoted.Claim(ctx, "k", "fp", lease)
		return err == nil && again.Claimed
	}, 10*time.Second, 20*time.Millisecond, "once the lease lapses, a retry claims the key again")
}
