package classify_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// TestRedisRepliesFromARealServer drives go-redis against a real
// redis-server and classifies the error replies it returns.
func TestRedisRepliesFromARealServer(t *testing.T) {
	addr, stop := redistest.Start(t)
	defer stop()
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	c := classify.New(nil)
	classifyErr := func(err error, method string) *toolerr.Error {
		t.Helper()
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("cache: %w", err), method, false)
		require.True(t, ok, "%v", err)
		require.NotNil(t, e.Upstream)
		assert.Equal(t, classify.VendorRedis, e.Upstream.Vendor)
		return e
	}

	require.NoError(t, rdb.Set(ctx, "order:42", "shipped", 0).Err())
	e := classifyErr(rdb.LPush(ctx, "order:42", "x").Err(), http.MethodPost)
	assert.Equal(t, toolerr.CodeInternal, e.Code, "WRONGTYPE: the service's own bug")
	assert.Equal(t, "WRONGTYPE", e.Upstream.Code)

	// redis.Nil is no server error: the handler decides what it means.
	err := rdb.Get(ctx, "order:missing").Err()
	require.ErrorIs(t, err, redis.Nil)
	_, ok := c.HandlerError(ctx, err, http.MethodGet, false)
	assert.False(t, ok, "redis.Nil is left to the handler")

	// OOM: maxmemory under noeviction refuses writes; nothing ran.
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory-policy", "noeviction").Err())
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", "1").Err())
	e = classifyErr(rdb.Set(ctx, "order:43", "new", 0).Err(), http.MethodPost)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable, "a refused write ran nothing: retryable even as a POST")
	assert.NotContains(t, e.Detail, "order:43")
	require.NoError(t, rdb.ConfigSet(ctx, "maxmemory", "0").Err())

	// BUSY: a script runs past busy-reply-threshold; other commands are
	// refused until it is killed.
	require.NoError(t, rdb.ConfigSet(ctx, "busy-reply-threshold", "50").Err())
	go func() { _ = rdb.Eval(ctx, "local i = 0 while true do i = i + 1 end", nil).Err() }()
	other := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer other.Close()
	var busyErr error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if busyErr = other.Get(ctx, "order:42").Err(); busyErr != nil && busyErr != redis.Nil {
			break
		}
	}
	e = classifyErr(busyErr, http.MethodGet)
	assert.Equal(t, "BUSY", e.Upstream.Code)
	assert.Equal(t, toolerr.CodeUpstreamUnavailable, e.Code)
	assert.True(t, e.Retryable)
	require.NoError(t, other.ScriptKill(ctx).Err())
}
