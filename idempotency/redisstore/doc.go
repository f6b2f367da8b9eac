// Package redisstore is an [idempotency.Store] in Redis, shared by all the
// replicas of a service (github.com/redis/go-redis/v9).
//
// Each method is one round trip: Claim, Complete and Release run a Lua
// script (EVALSHA, falling back to EVAL once when the server does not have
// the script cached yet), and so does Get, which hides lapsed claims. A key
// is one Redis hash, so the store works on Redis Cluster too.
//
// The store is also an [idempotency.FailureCounter], for the thrash guard
// (idempotency.ThrashGuard, ThrashCalls): a run of failures of one call is
// one hash, counted atomically by a Lua script, expiring its window after
// the run's first failure by the server's clock; each method is one round
// trip. [WithReplicaAck] does not apply to it: a count lost in a failover
// lets an identical call run once more, which is the safe direction.
// AddFailure announces each run it counts on a pub/sub channel under the
// key prefix, in the same script; every store listens there from its
// first [Store.MayHaveRuns] (one goroutine, ended by [Store.Close]) so
// that, while no run is live anywhere, the guard runs a call without a
// round trip ([idempotency.RunsWatcher]; grace period [WithRunsGrace]).
//
// Time: leases are measured by the Redis server's clock (TIME inside the
// scripts), never by the caller's, so replicas with skewed clocks agree on
// when a lease lapses. Record.LeaseUntil and Record.CreatedAt are server
// times.
//
// Expiry: an InFlight record expires at its lease plus a grace period
// ([WithInFlightGrace]), so a crashed owner never pins a key; a Completed
// record expires at its retention. Fencing tokens grow by one per claim of
// a key while the key has a record (a Release leaves a tombstone with the
// token); a key without a record starts again at the server time in
// microseconds, which is greater than any token the key had before as long
// as the server clock does not go back.
//
// # Replication and failover
//
// Redis replicates asynchronously: a write is acknowledged once the
// primary has it, and reaches the replicas a moment later. Without
// [WithReplicaAck] (the default), a failover loses the claims and
// completions the promoted replica had not received yet: a retry of such a
// key on the new primary claims it again and the request runs twice. The
// failover test of this package shows it: with the one replica stalled and
// its link down, the primary acknowledges 20 claims (and completions) and
// is killed; once the replica is promoted, the retries of those 20 keys run
// again, all 20 of them. Cost: one round trip per call, nothing more.
//
// With WithReplicaAck(n, timeout), Claim and Complete are acknowledged
// only once n replicas have the write (WAIT, pipelined after the script on
// the same connection: still one round trip, longer by the replicas'
// acknowledgement, about one more round trip between primary and replica).
// A claim the replicas do not acknowledge within timeout is released and
// refused with [ErrNotReplicated], so the middleware answers
// IDEMPOTENCY_UNAVAILABLE and the handler never runs on a claim that a
// failover could lose: a claim the handler runs on is on n replicas, and a
// promoted replica among them has it. In the same test, no key runs twice;
// the claims tried while the replica is stalled are refused with 503,
// retried, and run once on the new primary. Cost: a first execution waits
// twice for a replica (claim and completion); in one run on loopback (a
// 2-core VM), the middleware's first execution went from 0.31 ms with a
// replica (0.25 without) to 0.55 ms, a replay from 0.12 to 0.14 ms
// (BenchmarkMiddlewareReplication). While replicas lag or are gone,
// every new claim waits the timeout and is refused: the option trades
// availability for the guarantee. Replays are still answered, but may wait
// up to the timeout too: WAIT waits for the connection's earlier writes.
// On a server that does not have the scripts cached yet (a new primary
// after a failover), the first call of each script is two round trips, as
// without the option, and may wait twice.
//
// A completion is different: the response is sent by then. A completion
// no replica acknowledged returns [ErrNotReplicated] but stays on the
// primary (see [WithReplicaAck]); if that primary fails before a replica
// has it, the promoted replica holds the acknowledged InFlight claim, and
// a retry gets IDEMPOTENCY_IN_PROGRESS until its lease lapses, then runs
// again. The option closes the window of the claim, not that one: it
// narrows it to requests that were running when the replicas stalled.
//
// WAIT is not a consensus protocol. A failover that promotes a replica
// that did not acknowledge the write still loses it: with n smaller than
// the number of replicas that may be promoted, the promoted one may be one
// that had not received the claim. Set n to the number of replicas, or let
// Sentinel or Cluster promote only up-to-date replicas and have the primary
// refuse writes without enough of them (min-replicas-to-write,
// min-replicas-max-lag). A replica that acknowledged the write may also
// still lose it if it restarts without persistence before it is promoted.
package redisstore
