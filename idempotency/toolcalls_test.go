package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// runs returns a tool run that counts into n and returns result.
func runs(n *atomic.Int32, result string, keep bool) func(context.Context) ([]byte, bool) {
	return func(context.Context) ([]byte, bool) {
		n.Add(1)
		return []byte(result), keep
	}
}

// toolCall is a keyed call of create_label by agent-1.
func toolCall(key string) ToolCall {
	return ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: []byte(`{"to":"Oslo"}`), Key: key}
}

// fullStore refuses every claim as full.
type fullStore struct{ failingStore }

func (fullStore) Claim(context.Context, string, string, time.Duration) (Claim, error) {
	return Claim{}, fmt.Errorf("%w: test", ErrStoreFull)
}

// TestToolCallsStoreDown: an unreachable store refuses keyed calls before
// they run (IDEMPOTENCY_UNAVAILABLE, retryable, nothing of the store's
// error in the text), or runs them by FailOpen; a full store refuses even
// so; the guard lets calls through.
func TestToolCallsStoreDown(t *testing.T) {
	var n atomic.Int32
	_, _, e := NewToolCalls(failingStore{}, WithLogger(quiet)).Do(context.Background(), toolCall("k-1"), true, runs(&n, `"ok"`, true))
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
	assert.True(t, e.Retryable)
	assert.Equal(t, time.Second, e.RetryAfter)
	assert.NotContains(t, string(e.AppendJSON(nil)), "10.0.0.9")
	assert.Zero(t, n.Load(), "fail closed: nothing ran")

	res, replayed, e := NewToolCalls(failingStore{}, WithLogger(quiet), FailOpen()).Do(context.Background(), toolCall("k-1"), true, runs(&n, `"ok"`, true))
	require.Nil(t, e)
	assert.False(t, replayed)
	assert.Equal(t, `"ok"`, string(res))
	assert.EqualValues(t, 1, n.Load(), "fail open: it ran")

	_, _, e = NewToolCalls(fullStore{}, WithLogger(quiet), FailOpen()).Do(context.Background(), toolCall("k-1"), true, runs(&n, `"ok"`, true))
	require.NotNil(t, e, "a full store would let a retry run while the first runs")
	assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
	assert.EqualValues(t, 1, n.Load())

	for _, s := range []Store{failingStore{}, fullStore{}} {
		res, _, e = NewToolCalls(s, WithLogger(quiet)).Do(context.Background(), toolCall(""), true, runs(&n, `"ok"`, true))
		require.Nil(t, e, "the guard is a safety net, not a lock")
		assert.Equal(t, `"ok"`, string(res))
	}
	assert.EqualValues(t, 3, n.Load())
}

// TestToolCallsHungStore: a store that ignores its context answers within
// the store deadline: keyed calls are refused, guarded ones run.
func TestToolCallsHungStore(t *testing.T) {
	store := &hungStore{unblock: make(chan struct{})}
	defer close(store.unblock)
	tc := NewToolCalls(store, WithLogger(quiet), WithStoreTimeout(testStoreTimeout))
	var n atomic.Int32
	for _, key := range []string{"k-1", ""} {
		start := time.Now()
		_, _, e := tc.Do(context.Background(), toolCall(key), true, runs(&n, `"ok"`, true))
		assert.Less(t, time.Since(start), answerBound)
		if key != "" {
			require.NotNil(t, e)
			assert.Equal(t, toolerr.CodeIdempotencyUnavailable, e.Code)
		} else {
			assert.Nil(t, e)
		}
	}
	assert.EqualValues(t, 1, n.Load())
}

// TestToolCallsCancelledBeforeClaim: a caller that went away before the
// key was claimed gets CANCELLED, and nothing runs, even with FailOpen.
func TestToolCallsCancelledBeforeClaim(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var n atomic.Int32
	_, _, e := NewToolCalls(NewMemoryStore(), WithLogger(quiet), FailOpen()).Do(ctx, toolCall("k-1"), true, runs(&n, `"ok"`, true))
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeCancelled, e.Code)
	assert.Zero(t, n.Load())
}

// TestToolCallsKeepsResultOfCancelledRun: a run that finished its work
// and says keep is stored even though its caller went away meanwhile: the
// retry replays it instead of doing the work again.
func TestToolCallsKeepsResultOfCancelledRun(t *testing.T) {
	tc := NewToolCalls(NewMemoryStore(), WithLogger(quiet))
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int32
	_, _, e := tc.Do(ctx, toolCall("k-1"), true, func(context.Context) ([]byte, bool) {
		n.Add(1)
		cancel() // the client goes away as the work completes
		return []byte(`"done"`), true
	})
	require.Nil(t, e)
	res, replayed, e := tc.Do(context.Background(), toolCall("k-1"), true, runs(&n, `"again"`, true))
	require.Nil(t, e)
	assert.True(t, replayed)
	assert.Equal(t, `"done"`, string(res))
	assert.EqualValues(t, 1, n.Load())
}

// TestToolCallsKeyRules: keys that are empty of meaning, too long, or carry
// control or non-ASCII characters are refused before anything runs, and
// the refusal names the key as configured.
func TestToolCallsKeyRules(t *testing.T) {
	tc := NewToolCalls(NewMemoryStore(), WithLogger(quiet), WithMaxKeyLen(8), WithKeyName(`key (_meta "x/key")`))
	var n atomic.Int32
	for _, key := range []string{" ", "k 1", "k\n1", "k\x001", "ключ", strings.Repeat("k", 9)} {
		_, _, e := tc.Do(context.Background(), toolCall(key), true, runs(&n, `"ok"`, true))
		require.NotNil(t, e, "%q", key)
		assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
		assert.Contains(t, e.Detail, `key (_meta "x/key") must be 1 to 8 printable ASCII`)
	}
	_, _, e := tc.Do(context.Background(), toolCall(strings.Repeat("k", 8)), true, runs(&n, `"ok"`, true))
	assert.Nil(t, e)
	assert.EqualValues(t, 1, n.Load())
}

// TestToolCallsKeeps: what a failed call's result must not be kept for:
// a retry may pass.
func TestToolCallsKeeps(t *testing.T) {
	reg := toolerr.Default()
	tc := NewToolCalls(nil)
	assert.True(t, tc.Keeps(nil))
	for code, keep := range map[string]bool{
		toolerr.CodeValidationFailed: true,
		toolerr.CodeNotFound:         true,
		toolerr.CodeRateLimited:      false,
		toolerr.CodeCancelled:        false,
		toolerr.CodeInternal:         false,
		toolerr.CodeUpstreamTimeout:  false,
	} {
		assert.Equal(t, keep, tc.Keeps(reg.New(code, "")), code)
	}
	assert.True(t, NewToolCalls(nil, StoreServerErrors()).Keeps(reg.New(toolerr.CodeInternal, "")))
	assert.False(t, NewToolCalls(nil, StoreServerErrors()).Keeps(reg.New(toolerr.CodeRateLimited, "")), "retryable")
	assert.Equal(t, "Idempotency-Key", tc.Header())
	assert.Equal(t, "X-Op-Key", NewToolCalls(nil, WithHeader("x-op-key")).Header())
}

// TestToolCallsShareTheStoreWithMiddleware: a tool call and an HTTP
// request with the same principal and key string never meet in a shared
// store.
func TestToolCallsShareTheStoreWithMiddleware(t *testing.T) {
	store := NewMemoryStore()
	tool := &labelTool{}
	h := newMW(store, WithPrincipal(func(*http.Request) string { return "agent-1" }), WithTool(func(*http.Request) string { return "" }))(tool)
	require.Equal(t, 201, call(h, "k-1", "", `{"to":"Oslo"}`).Code)
	var n atomic.Int32
	res, replayed, e := NewToolCalls(store, WithLogger(quiet)).Do(context.Background(), toolCall("k-1"), true, runs(&n, `"call"`, true))
	require.Nil(t, e)
	assert.False(t, replayed)
	assert.Equal(t, `"call"`, string(res))
}
