package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// keyless is a call of create_label by agent-1 without a key.
func keyless(args string) idempotency.ToolCall { return keyedCall("", args) }

func testGuardBlocks(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	id := reqscope.NewRequestID()
	ctx := reqscope.New(context.Background(), id, "")
	before := time.Now()
	res, _, e := tc.Do(ctx, keyless(`{"to":"Oslo","kg":2}`), true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	assert.Equal(t, `"L-1"`, string(res))
	_, replayed, e := tc.Do(context.Background(), keyless(` {"kg":2.0, "to":"Oslo"}`), true, c.tool(`"L-#"`, true, nil))
	require.NotNil(t, e, "the same call, spelled otherwise, is a duplicate")
	assert.False(t, replayed)
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	assert.Equal(t, toolerr.CategoryConflict, e.Category)
	assert.False(t, e.Retryable)
	assert.Equal(t, 409, e.Status)
	assert.Equal(t, id, e.Details["first_request_id"], "the first call's request id")
	assert.Equal(t, "completed", e.Details["first_status"])
	at, err := time.Parse(time.RFC3339Nano, e.Details["first_call_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, before, at, 5*time.Second, "when the first call ran")
	assert.EqualValues(t, DefaultWindowMillis, e.Details["window_ms"])
	assert.EqualValues(t, 1, c.runs.Load())
	// Another argument, another tool or another principal is another call.
	other := []idempotency.ToolCall{keyless(`{"to":"Oslo","kg":3}`), {Principal: "agent-1", Tool: "create_invoice", Arguments: []byte(`{"to":"Oslo","kg":2}`)}, {Principal: "agent-2", Tool: "create_label", Arguments: []byte(`{"to":"Oslo","kg":2}`)}}
	for _, call := range other {
		_, _, e := tc.Do(context.Background(), call, true, c.tool(`"L-#"`, true, nil))
		assert.Nil(t, e, "%+v", call)
	}
	assert.EqualValues(t, 4, c.runs.Load())
}

// DefaultWindowMillis is idempotency.DefaultWindow in milliseconds, as
// DUPLICATE_ACTION's window_ms reports it.
const DefaultWindowMillis = int64(idempotency.DefaultWindow / time.Millisecond)

func testGuardWindow(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s, idempotency.WithWindow(ShortRetention))
	_, _, e := tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	_, _, e = tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
	require.NotNil(t, e, "within the window")
	assert.EqualValues(t, ShortRetention/time.Millisecond, e.Details["window_ms"])
	require.Eventually(t, func() bool {
		_, _, e := tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
		return e == nil
	}, expiryWait, 10*time.Millisecond, "after the window the call runs")
	assert.EqualValues(t, 2, c.runs.Load())
}

func testGuardInFlight(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	hold := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, _ = tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, hold))
	}()
	require.Eventually(t, func() bool { return c.runs.Load() == 1 }, expiryWait, time.Millisecond)
	_, _, e := tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	assert.Equal(t, "in_progress", e.Details["first_status"])
	close(hold)
	<-done
	assert.EqualValues(t, 1, c.runs.Load())
}

func testGuardForgets(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	_, _, e := tc.Do(context.Background(), keyless(`{}`), true, c.tool(`{"error":"rate limited"}`, false, nil))
	require.Nil(t, e)
	_, _, e = tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e, "the retry of a failure that may pass is no duplicate")
	_, _, e = tc.Do(context.Background(), keyless(`{}`), true, c.tool(`"L-#"`, true, nil))
	require.NotNil(t, e, "the repeat of the success is")
	assert.EqualValues(t, 2, c.runs.Load())
}

func testGuardAnonymous(t *testing.T, s idempotency.Store) {
	c := &counter{}
	anon := idempotency.ToolCall{Tool: "create_label", Arguments: []byte(`{}`)}
	tc := newToolCalls(s)
	for range 2 {
		_, _, e := tc.Do(context.Background(), anon, true, c.tool(`"L-#"`, true, nil))
		require.Nil(t, e, "anonymous callers cannot be told apart: not guarded")
	}
	shared := newToolCalls(s, idempotency.SharedAnonymousScope())
	_, _, e := shared.Do(context.Background(), anon, true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	_, _, e = shared.Do(context.Background(), anon, true, c.tool(`"L-#"`, true, nil))
	require.NotNil(t, e, "SharedAnonymousScope guards them as one caller")
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	assert.EqualValues(t, 3, c.runs.Load())
}

func testGuardScope(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	for range 2 {
		_, _, e := tc.Do(context.Background(), keyless(`{"q":"ships"}`), false, c.tool(`"L-#"`, true, nil))
		require.Nil(t, e, "a tool that does not mutate is never guarded")
	}
	for _, key := range []string{"k-1", "k-2"} {
		_, replayed, e := tc.Do(context.Background(), keyedCall(key, `{"to":"Oslo"}`), true, c.tool(`"L-#"`, true, nil))
		require.Nil(t, e, "a call with a key repeats on purpose")
		assert.False(t, replayed)
	}
	_, _, e := tc.Do(context.Background(), keyless(`{"to":"Oslo"}`), true, c.tool(`"L-#"`, true, nil))
	assert.Nil(t, e, "keyed calls leave nothing for the guard")
	assert.EqualValues(t, 5, c.runs.Load())
}
