package redisstore_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// serverNow returns the server's clock.
func serverNow(t *testing.T, c *redis.Client) time.Time {
	t.Helper()
	now, err := c.Time(t.Context()).Result()
	require.NoError(t, err)
	return now
}

// TestLayout checks what the store leaves in Redis: key names, TTLs, the
// tombstone of a Release, and how tokens grow.
func TestLayout(t *testing.T) {
	addr, _ := redistest.Start(t)
	c := newClient(t, addr)
	ctx := t.Context()

	t.Run("default prefix", func(t *testing.T) {
		s := redisstore.New(c)
		claimed, err := s.Claim(ctx, "k-default", "fp", time.Minute)
		require.NoError(t, err)
		require.True(t, claimed.Claimed)
		assert.EqualValues(t, 1, c.Exists(ctx, redisstore.DefaultKeyPrefix+"k-default").Val())
	})

	const prefix = "layout:"
	s := redisstore.New(c, redisstore.WithKeyPrefix(prefix), redisstore.WithInFlightGrace(2*time.Second))
	ttls := []struct {
		name     string
		complete bool
		min, max time.Duration
	}{
		{"in-flight lives lease plus grace", false, 2900 * time.Millisecond, 3 * time.Second},
		{"completed lives its retention", true, 4900 * time.Millisecond, 5 * time.Second},
	}
	for _, tt := range ttls {
		t.Run(tt.name, func(t *testing.T) {
			key := "ttl-" + strconv.FormatBool(tt.complete)
			claimed, err := s.Claim(ctx, key, "fp", time.Second)
			require.NoError(t, err)
			if tt.complete {
				require.NoError(t, s.Complete(ctx, key, claimed.Token, idempotency.Response{Status: 200}, 5*time.Second))
			}
			ttl := c.PTTL(ctx, prefix+key).Val()
			assert.GreaterOrEqual(t, ttl, tt.min)
			assert.LessOrEqual(t, ttl, tt.max)
		})
	}

	t.Run("lease by the server clock", func(t *testing.T) {
		before := serverNow(t, c)
		_, err := s.Claim(ctx, "clock", "fp", 10*time.Second)
		require.NoError(t, err)
		rec, ok, err := s.Get(ctx, "clock")
		require.NoError(t, err)
		require.True(t, ok)
		assert.WithinDuration(t, before, rec.CreatedAt, time.Second)
		assert.WithinDuration(t, before.Add(10*time.Second), rec.LeaseUntil, time.Second)
		assert.WithinDuration(t, before, time.UnixMicro(int64(rec.Token)), time.Second, "a new key's token is the server time in µs")
	})

	t.Run("release leaves a tombstone and tokens grow by one", func(t *testing.T) {
		first, err := s.Claim(ctx, "tomb", "fp", time.Minute)
		require.NoError(t, err)
		require.NoError(t, s.Release(ctx, "tomb", first.Token))
		fields := c.HGetAll(ctx, prefix+"tomb").Val()
		assert.Equal(t, map[string]string{"tok": strconv.FormatUint(first.Token, 10)}, fields)
		second, err := s.Claim(ctx, "tomb", "fp", 50*time.Millisecond)
		require.NoError(t, err)
		assert.Equal(t, first.Token+1, second.Token)
		time.Sleep(150 * time.Millisecond)
		third, err := s.Claim(ctx, "tomb", "fp", time.Minute)
		require.NoError(t, err)
		assert.Equal(t, second.Token+1, third.Token, "a lapsed claim is taken over with token+1")
	})

	t.Run("no grace: a lapsed claim's key is deleted", func(t *testing.T) {
		s := redisstore.New(c, redisstore.WithKeyPrefix(prefix), redisstore.WithInFlightGrace(0))
		_, err := s.Claim(ctx, "nograce", "fp", 50*time.Millisecond)
		require.NoError(t, err)
		assert.Eventually(t, func() bool { return c.Exists(ctx, prefix+"nograce").Val() == 0 }, 3*time.Second, 10*time.Millisecond)
	})

	t.Run("complete twice is a lost claim", func(t *testing.T) {
		claimed, err := s.Claim(ctx, "twice", "fp", time.Minute)
		require.NoError(t, err)
		require.NoError(t, s.Complete(ctx, "twice", claimed.Token, idempotency.Response{Status: 201, Body: []byte("first")}, time.Minute))
		err = s.Complete(ctx, "twice", claimed.Token, idempotency.Response{Status: 500, Body: []byte("second")}, time.Minute)
		assert.ErrorIs(t, err, idempotency.ErrLostClaim)
		rec, _, err := s.Get(ctx, "twice")
		require.NoError(t, err)
		assert.Equal(t, []byte("first"), rec.Response.Body)
	})

	t.Run("script cache flushed", func(t *testing.T) {
		require.NoError(t, c.ScriptFlush(ctx).Err())
		claimed, err := s.Claim(ctx, "flushed", "fp", time.Minute)
		require.NoError(t, err)
		require.True(t, claimed.Claimed)
		require.NoError(t, c.ScriptFlush(ctx).Err())
		require.NoError(t, s.Complete(ctx, "flushed", claimed.Token, idempotency.Response{Status: 200}, time.Minute))
		require.NoError(t, c.ScriptFlush(ctx).Err())
		_, ok, err := s.Get(ctx, "flushed")
		require.NoError(t, err)
		assert.True(t, ok)
	})
}

// TestCorruptRecords: a key that the store did not write (another type, or
// a hash with bad fields) is an error, never a panic nor a lost claim.
func TestCorruptRecords(t *testing.T) {
	addr, _ := redistest.Start(t)
	c := newClient(t, addr)
	ctx := t.Context()
	const prefix = "corrupt:"
	s := redisstore.New(c, redisstore.WithKeyPrefix(prefix))
	tests := []struct {
		name    string
		setup   func(key string) error
		wantErr bool
	}{
		{"string value", func(key string) error { return c.Set(ctx, key, "x", 0).Err() }, true},
		{"bad token", func(key string) error { return c.HSet(ctx, key, "st", "2", "tok", "abc").Err() }, true},
		{"bad status", func(key string) error {
			return c.HSet(ctx, key, "st", "2", "tok", "1", "ca", "1", "status", "x").Err()
		}, true},
		{"bad header", func(key string) error {
			return c.HSet(ctx, key, "st", "2", "tok", "1", "ca", "1", "status", "200", "hdr", "{").Err()
		}, true},
		// A hash without a known state is a tombstone: no record, and
		// the next claim takes its token + 1.
		{"unknown state", func(key string) error { return c.HSet(ctx, key, "st", "9", "tok", "7").Err() }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.setup(prefix+tt.name))
			assert.NotPanics(t, func() {
				_, ok, err := s.Get(ctx, tt.name)
				assert.Equal(t, tt.wantErr, err != nil, "Get: %v", err)
				assert.False(t, ok)
				claimed, err := s.Claim(ctx, tt.name, "fp", time.Minute)
				assert.Equal(t, tt.wantErr, err != nil, "Claim: %v", err)
				if !tt.wantErr {
					assert.Equal(t, uint64(8), claimed.Token)
				}
			})
		})
	}
	t.Run("wrong type on complete and release", func(t *testing.T) {
		err := s.Complete(ctx, "string value", 1, idempotency.Response{Status: 200}, time.Minute)
		assert.True(t, err != nil && !errors.Is(err, idempotency.ErrLostClaim), "Complete: %v", err)
		err = s.Release(ctx, "string value", 1)
		assert.True(t, err != nil && !errors.Is(err, idempotency.ErrLostClaim), "Release: %v", err)
	})
}

// TestNilClient: a Store without a client fails every call with an error.
func TestNilClient(t *testing.T) {
	s := redisstore.New(nil, nil)
	ctx := context.Background()
	_, err := s.Claim(ctx, "k", "fp", time.Second)
	assert.Error(t, err)
	assert.Error(t, s.Complete(ctx, "k", 1, idempotency.Response{}, time.Second))
	assert.Error(t, s.Release(ctx, "k", 1))
	_, _, err = s.Get(ctx, "k")
	assert.Error(t, err)
}
