package idempotency_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// lookupCounter is a MemoryStore that counts the lookups of runs; it is a
// RunsWatcher through the store.
type lookupCounter struct {
	*idempotency.MemoryStore
	lookups atomic.Int32
}

// Failures counts the lookup, and looks the run up in the store.
func (c *lookupCounter) Failures(ctx context.Context, key string) (idempotency.Failures, error) {
	c.lookups.Add(1)
	return c.MemoryStore.Failures(ctx, key)
}

// unwatched hides the counter's RunsWatcher.
type unwatched struct{ idempotency.FailureCounter }

// TestThrashCallsSkipsTheLookupWithoutRuns: while the counter's
// RunsWatcher says no run may be live, a tool call is not looked up
// (nor is a failure, which is counted); once a run is, every call is,
// and the third identical failure is refused. A counter that is not a
// RunsWatcher is looked up on every call.
func TestThrashCallsSkipsTheLookupWithoutRuns(t *testing.T) {
	c := &lookupCounter{MemoryStore: idempotency.NewMemoryStore()}
	tc := idempotency.NewThrashCalls(c)
	call := idempotency.ToolCall{Principal: "p", Tool: "get_order", Arguments: []byte(`{"id":"ord-9"}`)}
	var fails atomic.Bool
	ran := 0
	do := func() *toolerr.Error {
		return tc.Do(t.Context(), call, func(context.Context) (*toolerr.Error, bool) {
			ran++
			if fails.Load() {
				return toolerr.Default().New(toolerr.CodeNotFound, ""), true
			}
			return nil, true
		})
	}
	for range 3 {
		require.Nil(t, do())
	}
	assert.Zero(t, c.lookups.Load(), "no run: successes are not looked up")
	fails.Store(true)
	require.Nil(t, do())
	assert.Zero(t, c.lookups.Load(), "the first failure is counted, not looked up")
	assert.True(t, c.MayHaveRuns())
	require.Nil(t, do())
	refusal := do()
	require.NotNil(t, refusal)
	assert.Equal(t, toolerr.CodeRepeatedFailure, refusal.Code)
	assert.EqualValues(t, 2, c.lookups.Load(), "with a run live, every call is looked up")
	assert.Equal(t, 5, ran)

	plain := &lookupCounter{MemoryStore: idempotency.NewMemoryStore()}
	tc = idempotency.NewThrashCalls(unwatched{plain})
	fails.Store(false)
	require.Nil(t, do())
	assert.EqualValues(t, 1, plain.lookups.Load(), "without a RunsWatcher, a success is looked up")
}

// TestThrashGuardSkipsTheLookupWithoutRuns: the HTTP guard over a
// RunsWatcher that says no run may be live does not look a call up; over
// a counter that is not one, it does; either way the third identical
// failure is refused.
func TestThrashGuardSkipsTheLookupWithoutRuns(t *testing.T) {
	for name, wrap := range map[string]func(*lookupCounter) idempotency.FailureCounter{
		"watched":   func(c *lookupCounter) idempotency.FailureCounter { return c },
		"unwatched": func(c *lookupCounter) idempotency.FailureCounter { return unwatched{c} },
	} {
		t.Run(name, func(t *testing.T) {
			c := &lookupCounter{MemoryStore: idempotency.NewMemoryStore()}
			tt := newThrashTool(wrap(c), func(body string) error {
				if body == `{"id":"ord-9"}` {
					return notFound(body)
				}
				return nil
			})
			require.Equal(t, 201, send(tt.h, "Bearer agent-1", `{"id":"ord-1"}`).Code)
			if name == "watched" {
				assert.Zero(t, c.lookups.Load())
			} else {
				assert.EqualValues(t, 1, c.lookups.Load())
			}
			for range 2 {
				require.Equal(t, 404, send(tt.h, "Bearer agent-1", `{"id":"ord-9"}`).Code)
			}
			assert.Equal(t, 409, send(tt.h, "Bearer agent-1", `{"id":"ord-9"}`).Code)
			assert.EqualValues(t, 3, tt.runs.Load())
		})
	}
}
