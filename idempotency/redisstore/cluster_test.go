package redisstore_test

import (
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// TestReplicaAckCluster: on Redis Cluster (one master with all the slots
// and one replica), WithReplicaAck sends the script and WAIT to the
// master of the key's slot: the claim is acknowledged by its replica, and
// asking for more replicas than the master has is refused. The failure
// counts of the thrash guard work there too, and their announcements
// (PUBLISH from the script) reach a store listening through the cluster
// client and one listening on the replica node.
func TestReplicaAckCluster(t *testing.T) {
	clusterArgs := []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"}
	master, _ := redistest.StartArgs(t, clusterArgs...)
	replica, _ := redistest.StartArgs(t, clusterArgs...)
	ctx := t.Context()
	m := newClient(t, master)
	r := newClient(t, replica)
	require.NoError(t, m.Do(ctx, "CLUSTER", "ADDSLOTSRANGE", 0, 16383).Err())
	host, port := splitAddr(t, replica)
	require.NoError(t, m.Do(ctx, "CLUSTER", "MEET", host, port).Err())
	id, err := m.Do(ctx, "CLUSTER", "MYID").Text()
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return r.Do(ctx, "CLUSTER", "REPLICATE", id).Err() == nil
	}, 10*time.Second, 20*time.Millisecond, "the replica must learn of the master")
	redistest.AwaitInfo(t, replica, "replication", "master_link_status:up")
	require.Eventually(t, func() bool {
		info, err := m.ClusterInfo(ctx).Result()
		return err == nil && strings.Contains(info, "cluster_state:ok")
	}, 10*time.Second, 20*time.Millisecond, "the cluster must be up")

	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{master}, MaxRetries: -1, ReadTimeout: 5 * time.Second})
	t.Cleanup(func() { _ = cluster.Close() })
	prefix := uniquePrefix()
	s := redisstore.New(cluster, redisstore.WithKeyPrefix(prefix), redisstore.WithReplicaAck(1, 2*time.Second))
	viaCluster := redisstore.New(cluster, redisstore.WithKeyPrefix(prefix), redisstore.WithRunsGrace(0))
	onReplica := redisstore.New(r, redisstore.WithKeyPrefix(prefix), redisstore.WithRunsGrace(0))
	for _, w := range []*redisstore.Store{viaCluster, onReplica} {
		t.Cleanup(func() { require.NoError(t, w.Close()) })
		eventually(t, w, false, "listening, no run")
	}
	c, err := s.Claim(ctx, "k", "fp", time.Minute)
	require.NoError(t, err)
	require.True(t, c.Claimed)
	require.NoError(t, s.Complete(ctx, "k", c.Token, idempotency.Response{Status: 201}, time.Minute))
	rec, ok, err := s.Get(ctx, "k")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, idempotency.Completed, rec.State)

	// The thrash guard's counts run on the cluster too: one key per script.
	for range 2 {
		_, err = s.AddFailure(ctx, "thrash:k", "NOT_FOUND", time.Minute)
		require.NoError(t, err)
	}
	eventually(t, viaCluster, true, "the announcement reaches the cluster client's subscriber")
	eventually(t, onReplica, true, "and a subscriber on the replica node")
	f, err := s.Failures(ctx, "thrash:k")
	require.NoError(t, err)
	assert.Equal(t, idempotency.Failures{Code: "NOT_FOUND", Count: 2, Since: f.Since}, f)
	require.NoError(t, s.ClearFailures(ctx, "thrash:k"))
	f, err = s.Failures(ctx, "thrash:k")
	require.NoError(t, err)
	assert.Zero(t, f.Count)

	more := redisstore.New(cluster, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithReplicaAck(2, ackTimeout))
	_, err = more.Claim(ctx, "k", "fp", time.Minute)
	require.ErrorIs(t, err, redisstore.ErrNotReplicated)
	assert.Contains(t, err.Error(), "1 of 2 replicas")
}

// splitAddr splits "host:port".
func splitAddr(t *testing.T, addr string) (host, port string) {
	t.Helper()
	i := strings.LastIndexByte(addr, ':')
	require.Positive(t, i, addr)
	return addr[:i], addr[i+1:]
}
