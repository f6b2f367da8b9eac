package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
)

var _ idempotency.FailureCounter = (*Store)(nil)

// A run of failures (idempotency.FailureCounter) is one Redis hash at
// prefix+key, apart from the idempotency records (the guards' keys start
// with "thrash:"). Its fields:
//
//	code   the error code of the run
//	n      the number of failures in the run (decimal)
//	since  when the run's first failure was counted, µs since the Unix epoch (server clock)
//
// The hash expires window after its first failure (PEXPIRE when the run
// starts; a failure with the same code keeps the expiry). One key per call
// of a script: it runs on Redis Cluster like the other scripts.

// addFailureScript counts a failure with code ARGV[1] of KEYS[1]: one more
// in the run when the run has that code, else a new run of 1 that expires
// after ARGV[2] ms. It announces on channel ARGV[3] how long the run still
// lives, in ms (the key's PTTL), for the other stores' MayHaveRuns
// (runs_watch.go); a refused publication (an ACL without the channel)
// does not undo the count, and is reported by the fifth value, 0. It
// returns {code, n, since, ttl, published}.
var addFailureScript = redis.NewScript(prelude + `
local r = redis.call('HMGET', KEYS[1], 'code', 'n', 'since')
local res
if r[1] == ARGV[1] and r[2] and r[3] then
  local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
  res = {r[1], n, r[3]}
else
  redis.call('HSET', KEYS[1], 'code', ARGV[1], 'n', 1, 'since', int(now))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  res = {ARGV[1], 1, int(now)}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[2]) end
res[4] = ttl
local ok = redis.pcall('PUBLISH', ARGV[3], ttl)
if type(ok) == 'table' and ok.err then res[5] = 0 else res[5] = 1 end
return res
`)

// Failures implements [idempotency.FailureCounter.Failures] in one round
// trip.
func (s *Store) Failures(ctx context.Context, key string) (idempotency.Failures, error) {
	if err := s.check(ctx); err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: failures: %w", err)
	}
	vals, err := s.client.HMGet(ctx, s.prefix+key, "code", "n", "since").Result()
	if err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: failures: %w", err)
	}
	if len(vals) != 3 || vals[0] == nil {
		return idempotency.Failures{}, nil
	}
	f, err := decodeFailures(vals)
	if err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: failures: %w", err)
	}
	return f, nil
}

// AddFailure implements [idempotency.FailureCounter.AddFailure] in one
// round trip, atomically. A window below one millisecond is one
// millisecond.
func (s *Store) AddFailure(ctx context.Context, key, code string, window time.Duration) (idempotency.Failures, error) {
	if err := s.check(ctx); err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: add failure: %w", err)
	}
	vals, err := addFailureScript.Run(ctx, s.client, []string{s.prefix + key}, code, max(millisCeil(min(window, maxDuration)), 1), s.runs.channel).Slice()
	if err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: add failure: %w", err)
	}
	if len(vals) != 5 {
		return idempotency.Failures{}, fmt.Errorf("redisstore: add failure: unexpected reply of %d values", len(vals))
	}
	f, err := decodeFailures(vals[:3])
	if err != nil {
		return idempotency.Failures{}, fmt.Errorf("redisstore: add failure: %w", err)
	}
	s.runs.counted(vals[3], vals[4])
	return f, nil
}

// ClearFailures implements [idempotency.FailureCounter.ClearFailures] in
// one round trip.
func (s *Store) ClearFailures(ctx context.Context, key string) error {
	if err := s.check(ctx); err != nil {
		return fmt.Errorf("redisstore: clear failures: %w", err)
	}
	if err := s.client.Del(ctx, s.prefix+key).Err(); err != nil {
		return fmt.Errorf("redisstore: clear failures: %w", err)
	}
	return nil
}

// errCorruptRun reports a run of failures whose fields do not parse.
var errCorruptRun = errors.New("corrupt run of failures")

// decodeFailures builds a run from its code, n and since.
func decodeFailures(vals []any) (idempotency.Failures, error) {
	n, err := strconv.Atoi(str(vals[1]))
	if err != nil || n < 1 {
		return idempotency.Failures{}, fmt.Errorf("%w: count %q", errCorruptRun, str(vals[1]))
	}
	since, err := micros(vals[2])
	if err != nil {
		return idempotency.Failures{}, fmt.Errorf("%w: since: %v", errCorruptRun, err)
	}
	return idempotency.Failures{Code: str(vals[0]), Count: n, Since: since}, nil
}
