package redisstore_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// TestToolCallsRedisStopped: with Redis gone, a keyed tool call is refused
// with IDEMPOTENCY_UNAVAILABLE before it runs and within the store
// deadline, runs with FailOpen, and a keyless call of a mutating tool
// passes the guard.
func TestToolCallsRedisStopped(t *testing.T) {
	addr, stop := redistest.Start(t)
	client := newClient(t, addr)
	store := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	opts := []idempotency.Option{idempotency.WithLogger(quietLog), idempotency.WithStoreTimeout(200 * time.Millisecond)}
	closed := idempotency.NewToolCalls(store, opts...)
	open := idempotency.NewToolCalls(store, append(opts, idempotency.FailOpen())...)
	var runs atomic.Int32
	run := func(context.Context) ([]byte, bool) {
		runs.Add(1)
		return []byte(`{"label":"L"}`), true
	}
	call := idempotency.ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: []byte(`{"to":"Oslo"}`), Key: "k-1"}
	_, _, e := closed.Do(context.Background(), call, true, run)
	require.Nil(t, e)

	stop()
	call.Key = "k-2"
	start := time.Now()
	_, _, e = closed.Do(context.Background(), call, true, run)
	assert.Less(t, time.Since(start), time.Second)
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.NotContains(t, string(e.AppendJSON(nil)), addr, "the store's address never reaches the agent")
	assert.EqualValues(t, 1, runs.Load(), "fail closed: nothing ran")

	_, _, e = open.Do(context.Background(), call, true, run)
	assert.Nil(t, e, "fail open: it runs")
	call.Key = ""
	_, _, e = closed.Do(context.Background(), call, true, run)
	assert.Nil(t, e, "the guard lets the call through")
	assert.EqualValues(t, 3, runs.Load())
}
