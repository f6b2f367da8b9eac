package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotReplicated is returned (wrapped) by Claim and Complete of a Store
// with [WithReplicaAck] when the write was not acknowledged by the required
// number of replicas within the timeout. Claim has then released its claim
// (best effort) and the caller must not run the request:
// idempotency.Middleware answers IDEMPOTENCY_UNAVAILABLE (503, retryable).
// Complete's record is Completed on the primary all the same; see
// [WithReplicaAck].
var ErrNotReplicated = errors.New("redisstore: the write did not reach the required replicas in time")

// ErrReplicaAckUnsupported is returned (wrapped) by Claim and Complete of
// a Store with [WithReplicaAck] over a client that is not a
// *redis.Client, *redis.ClusterClient or *redis.Ring: WAIT must run on the
// connection that wrote the key, which the store can only find for those.
var ErrReplicaAckUnsupported = errors.New("redisstore: WithReplicaAck needs a *redis.Client, *redis.ClusterClient or *redis.Ring")

// minAckTimeout is the least WAIT timeout: WAIT 0 would block for ever.
const minAckTimeout = time.Millisecond

// replicaAck is the replication a write must reach; replicas 0 is off.
type replicaAck struct {
	replicas int
	timeout  time.Duration
}

// WithReplicaAck makes Claim and Complete wait until their write reached
// replicas replicas of the primary, for at most timeout, before they
// answer. Default: off (replicas 0): a write is acknowledged once the
// primary has it, and a failover that promotes a replica the write had
// not reached yet loses it.
//
// Each Claim and Complete sends its script and WAIT replicas timeout-ms on
// the same connection, pipelined: still one network round trip, which
// lasts until the replicas acknowledged (about one replication round trip
// more), or timeout when they do not. When fewer replicas acknowledged a
// claim, Claim releases it (best effort) and returns an error wrapping
// [ErrNotReplicated]: idempotency.Middleware answers
// IDEMPOTENCY_UNAVAILABLE (503, retryable) and the handler does not run
// (with idempotency.FailOpen it runs without a claim, as on any store
// error). When a completion is not acknowledged, Complete returns an error
// wrapping ErrNotReplicated; the record stays Completed on the primary
// (the response was sent already and a write cannot be taken back), so
// retries replay it as long as that primary serves. The middleware logs
// it. Should the primary fail before the completion reached a replica, the
// promoted replica has the acknowledged InFlight claim: retries get
// IDEMPOTENCY_IN_PROGRESS until its lease lapses, then run again.
//
// Release and Get do not wait. Get only reads. A Release lost in a
// failover leaves the claim to lapse with its lease: a retry then runs
// once, as it would have after the Release, only later; it never makes a
// request run twice.
//
// Keep timeout below the store deadline of the middleware
// (idempotency.WithStoreTimeout, 500 ms by default) minus a round trip,
// and below the client's ReadTimeout (3 s by default), which bounds the
// pipeline's read. A timeout below a millisecond is one millisecond (WAIT
// 0 would wait for ever); replicas below 1 turns the option off.
//
// The client must be a *redis.Client (NewFailoverClient's too), whose
// pipeline runs on one connection; a *redis.ClusterClient, where the
// pipeline goes to the master of the key's slot (MasterForKey; a MOVED
// answer reloads the slot map and fails the call, so the retry reaches the
// new master); or a *redis.Ring, where it goes to the key's shard
// (GetShardClientForKey). These pipelines run on the node's or shard's
// client, so hooks added to the cluster or ring client do not see them
// (add them in OnNewNode). Any other client fails every Claim and
// Complete with [ErrReplicaAckUnsupported].
func WithReplicaAck(replicas int, timeout time.Duration) Option {
	return func(s *Store) {
		if replicas < 1 {
			s.ack = replicaAck{}
			return
		}
		s.ack = replicaAck{replicas: replicas, timeout: max(timeout, minAckTimeout)}
	}
}

// nodeFor returns the client whose pipelines reach, on one connection, the
// primary that holds key.
func (s *Store) nodeFor(ctx context.Context, key string) (*redis.Client, error) {
	switch c := s.client.(type) {
	case *redis.Client:
		return c, nil
	case *redis.ClusterClient:
		return c.MasterForKey(ctx, key)
	case *redis.Ring:
		return c.GetShardClientForKey(key)
	default:
		return nil, fmt.Errorf("%w, not %T", ErrReplicaAckUnsupported, s.client)
	}
}

// run runs script on key, in one round trip. Without replica acks it is
// script.Run. With them it pipelines the script and WAIT on the key's
// primary; ack is nil when the replicas acknowledged, else an error
// wrapping ErrNotReplicated. Either way a NOSCRIPT answer to EVALSHA is
// followed by EVAL once (with its own WAIT).
func (s *Store) run(ctx context.Context, script *redis.Script, key string, args ...any) (res *redis.Cmd, ack error) {
	keys := []string{key}
	if s.ack.replicas == 0 {
		return script.Run(ctx, s.client, keys, args...), nil
	}
	node, err := s.nodeFor(ctx, key)
	if err != nil {
		res = redis.NewCmd(ctx)
		res.SetErr(err)
		return res, nil
	}
	res, wait := s.pipelineWait(ctx, node, func(p redis.Pipeliner) *redis.Cmd {
		return script.EvalSha(ctx, p, keys, args...)
	})
	if isNoScript(res.Err()) {
		res, wait = s.pipelineWait(ctx, node, func(p redis.Pipeliner) *redis.Cmd {
			return script.Eval(ctx, p, keys, args...)
		})
	}
	if c, ok := s.client.(*redis.ClusterClient); ok && isRedirect(res.Err()) {
		c.ReloadState(ctx)
	}
	switch n, err := wait.Result(); {
	case err != nil:
		return res, fmt.Errorf("%w: WAIT: %w", ErrNotReplicated, err)
	case n < int64(s.ack.replicas):
		return res, fmt.Errorf("%w: %d of %d replicas within %v", ErrNotReplicated, n, s.ack.replicas, s.ack.timeout)
	}
	return res, nil
}

// pipelineWait sends the command eval queues and WAIT in one pipeline on
// node, and returns both answers.
func (s *Store) pipelineWait(ctx context.Context, node *redis.Client, eval func(redis.Pipeliner) *redis.Cmd) (*redis.Cmd, *redis.IntCmd) {
	var (
		res  *redis.Cmd
		wait *redis.IntCmd
	)
	// The error is the first of the commands' errors: each is read from
	// its command.
	_, _ = node.Pipelined(ctx, func(p redis.Pipeliner) error {
		res = eval(p)
		// Pipeliner has no Wait method: WAIT numreplicas timeout-ms.
		wait = redis.NewIntCmd(ctx, "wait", s.ack.replicas, s.ack.timeout.Milliseconds())
		return p.Process(ctx, wait)
	})
	return res, wait
}

// isNoScript reports whether err is the server's answer to EVALSHA of a
// script it does not have cached.
func isNoScript(err error) bool {
	return err != nil && (errors.Is(err, redis.ErrNoScript) || redis.HasErrorPrefix(err, "NOSCRIPT"))
}

// isRedirect reports whether err is a cluster's MOVED or ASK answer.
func isRedirect(err error) bool {
	if _, ok := redis.IsMovedError(err); ok {
		return true
	}
	_, ok := redis.IsAskError(err)
	return ok
}

// releaseUnreplicated releases a claim that its replicas did not
// acknowledge, best effort, within its own short deadline: the caller's
// context may be about to end, and the claim must not block the key's
// retries until its lease lapses.
func (s *Store) releaseUnreplicated(ctx context.Context, key string, token uint64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	_ = s.Release(ctx, key, token)
}

// releaseTimeout bounds the release of an unacknowledged claim.
const releaseTimeout = time.Second
