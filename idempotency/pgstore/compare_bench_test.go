package pgstore_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/pgstore"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/idempotency/storetest"
	"github.com/toolerr/toolerr/internal/pgserver"
)

// BenchmarkStores compares the stores through idempotency.Middleware, with
// the request and handler of storetest.BenchmarkMiddleware: a first
// execution (a new key each time) and a replay (the same key again), on
// the memory store, Redis (alone, with a replica, and waiting for the
// replica's acknowledgement) and Postgres (real servers on loopback), and the
// floor of each server: one SELECT 1 over the same pool, one PING over the
// same client. round_trips/op counts the network round trips to the
// server per operation (pgx queries and prepares; go-redis commands).
func BenchmarkStores(b *testing.B) {
	b.Run("store=memory", func(b *testing.B) {
		benchMiddleware(b, idempotency.NewMemoryStore(), nil)
	})
	b.Run("store=redis", func(b *testing.B) {
		client, trips := redisClient(b)
		benchMiddleware(b, redisstore.New(client, redisstore.WithKeyPrefix(benchPrefix())), trips)
	})
	b.Run("store=redis_with_replica", func(b *testing.B) {
		client, trips := redisReplicated(b)
		benchMiddleware(b, redisstore.New(client, redisstore.WithKeyPrefix(benchPrefix())), trips)
	})
	b.Run("store=redis_replica_ack", func(b *testing.B) {
		client, trips := redisReplicated(b)
		store := redisstore.New(client, redisstore.WithKeyPrefix(benchPrefix()), redisstore.WithReplicaAck(1, 100*time.Millisecond))
		benchMiddleware(b, store, trips)
	})
	b.Run("store=postgres", func(b *testing.B) {
		pool, trips := pgPool(b)
		store := pgstore.New(pool, pgstore.WithTable(uniqueTable()))
		if err := store.Migrate(context.Background()); err != nil {
			b.Fatal(err)
		}
		benchMiddleware(b, store, trips)
	})
	b.Run("floor=postgres_select1", func(b *testing.B) {
		pool, trips := pgPool(b)
		ctx := context.Background()
		var one int
		benchFloor(b, trips, func() error { return pool.QueryRow(ctx, "SELECT 1").Scan(&one) })
	})
	b.Run("floor=redis_ping", func(b *testing.B) {
		client, trips := redisClient(b)
		ctx := context.Background()
		benchFloor(b, trips, func() error { return client.Ping(ctx).Err() })
	})
}

// benchMiddleware runs storetest.BenchmarkMiddlewareTrips over store,
// counting round trips with trips when it is not nil.
func benchMiddleware(b *testing.B, store idempotency.Store, trips *atomic.Int64) {
	var count func() int64
	if trips != nil {
		count = trips.Load
	}
	storetest.BenchmarkMiddlewareTrips(b, store, count)
}

// benchFloor measures op, one round trip to a server, after a warm-up.
func benchFloor(b *testing.B, trips *atomic.Int64, op func() error) {
	if err := op(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := load(trips)
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	reportTrips(b, trips, start)
}

// load returns the count of trips, 0 when it is not counted.
func load(trips *atomic.Int64) int64 {
	if trips == nil {
		return 0
	}
	return trips.Load()
}

// reportTrips reports round_trips/op since start, when counted; the memory
// store makes none.
func reportTrips(b *testing.B, trips *atomic.Int64, start int64) {
	if b.N == 0 {
		return
	}
	b.ReportMetric(float64(load(trips)-start)/float64(b.N), "round_trips/op")
}

// pgPool starts a Postgres server and returns a pool of 4 connections in
// the default mode (statement cache) whose round trips are counted.
func pgPool(b *testing.B) (*pgxpool.Pool, *atomic.Int64) {
	trips := &atomic.Int64{}
	pool := newPool(b, pgserver.Start(b), 4, func(c *pgxpool.Config) { c.ConnConfig.Tracer = atomicTracer{trips} })
	return pool, trips
}

// benchPrefix returns a key prefix of its own for a benchmark's store.
func benchPrefix() string {
	return "bench:" + strconv.FormatInt(time.Now().UnixNano(), 10) + ":"
}

// redisClient starts a Redis server and returns a client whose round
// trips are counted.
func redisClient(b *testing.B) (*redis.Client, *atomic.Int64) {
	addr, _ := redistest.Start(b)
	return countedRedis(b, addr)
}

// redisReplicated starts a Redis primary with one replica on loopback and
// returns a client of the primary whose round trips are counted.
func redisReplicated(b *testing.B) (*redis.Client, *atomic.Int64) {
	addr, _ := redistest.Start(b)
	redistest.StartReplica(b, addr)
	return countedRedis(b, addr)
}

// countedRedis returns a client of addr whose round trips are counted.
func countedRedis(b *testing.B, addr string) (*redis.Client, *atomic.Int64) {
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	b.Cleanup(func() { _ = client.Close() })
	trips := &atomic.Int64{}
	client.AddHook(redisTrips{trips})
	return client, trips
}

// atomicTracer counts pgx queries and prepares, one round trip each.
type atomicTracer struct{ n *atomic.Int64 }

// TraceQueryStart counts a query.
func (t atomicTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	t.n.Add(1)
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (atomicTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TracePrepareStart counts a prepare.
func (t atomicTracer) TracePrepareStart(ctx context.Context, _ *pgx.Conn, _ pgx.TracePrepareStartData) context.Context {
	t.n.Add(1)
	return ctx
}

// TracePrepareEnd implements pgx.PrepareTracer.
func (atomicTracer) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}

// redisTrips counts go-redis round trips: one per command, one per
// pipeline.
type redisTrips struct{ n *atomic.Int64 }

// DialHook passes dials through.
func (redisTrips) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook counts a command.
func (h redisTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook counts a pipeline.
func (h redisTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}
