package redisstore_test

import (
	"testing"

	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest"
)

// BenchmarkMiddlewareReplication measures a first execution and a replay
// through the middleware over a redis-server alone, a primary with one
// replica, and the same pair with WithReplicaAck(1): the cost of waiting
// for the replica's acknowledgement of the claim and the completion (a
// replay writes nothing, but its claim script still sends WAIT, which
// returns at once when the connection's writes are acknowledged).
func BenchmarkMiddlewareReplication(b *testing.B) {
	b.Run("redis_alone", func(b *testing.B) {
		addr, _ := redistest.Start(b)
		storetest.BenchmarkMiddleware(b, redisstore.New(newClient(b, addr), redisstore.WithKeyPrefix(uniquePrefix())))
	})
	b.Run("with_replica", func(b *testing.B) {
		primary, _ := startPair(b)
		storetest.BenchmarkMiddleware(b, redisstore.New(newClient(b, primary), redisstore.WithKeyPrefix(uniquePrefix())))
	})
	b.Run("with_replica_ack1", func(b *testing.B) {
		primary, _ := startPair(b)
		storetest.BenchmarkMiddleware(b, redisstore.New(newClient(b, primary), redisstore.WithKeyPrefix(uniquePrefix()),
			redisstore.WithReplicaAck(1, ackTimeout)))
	})
}
