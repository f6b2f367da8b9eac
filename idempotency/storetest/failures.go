package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// ShortWindow is the window of the runs of failures a subtest of
// [RunFailureCounter] lets expire.
const ShortWindow = 100 * time.Millisecond

// RunFailureCounter runs the suite of [idempotency.FailureCounter] over the
// counters newCounter returns (see [Run] for what newCounter must do):
// failures of one key with one code are counted in a row, another code
// restarts the run, a clear forgets it, a run expires its window after
// its first failure, concurrent failures are all counted, and the
// thrash guard of tool calls ([idempotency.ThrashCalls]) refuses the third
// identical failing call over it; a counter that is an
// [idempotency.RunsWatcher] says a run may be live as soon as it counted
// one.
func RunFailureCounter(t *testing.T, newCounter func(t *testing.T) idempotency.FailureCounter) {
	t.Helper()
	cases := []struct {
		name string
		run  func(t *testing.T, c idempotency.FailureCounter)
	}{
		{"failures/no run", testNoRun},
		{"failures/the same code counts in a row", testSameCode},
		{"failures/another code restarts the run", testOtherCode},
		{"failures/a clear forgets the run", testClear},
		{"failures/keys are independent", testFailureKeys},
		{"failures/a run expires its window after its first failure", testRunExpires},
		{"failures/concurrent failures are all counted", testConcurrentFailures},
		{"failures/cancelled context is an error", testFailuresCancelled},
		{"failures/ThrashCalls refuses the third identical failure", testThrashCalls},
		{"failures/a RunsWatcher knows of the run it counted", testRunsWatcher},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newCounter(t)
			require.NotNil(t, c, "newCounter returned nil")
			tc.run(t, c)
		})
	}
}

func testNoRun(t *testing.T, c idempotency.FailureCounter) {
	f, err := c.Failures(t.Context(), "none")
	require.NoError(t, err)
	assert.Zero(t, f.Count)
	require.NoError(t, c.ClearFailures(t.Context(), "none"), "clearing no run is no error")
}

func testSameCode(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	start := time.Now()
	first, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, idempotency.Failures{Code: "NOT_FOUND", Count: 1, Since: first.Since}, first)
	assert.WithinDuration(t, start, first.Since, 5*time.Second, "since is when the run started")
	second, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 2, second.Count)
	assert.True(t, first.Since.Equal(second.Since), "the run keeps its start")
	got, err := c.Failures(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, "NOT_FOUND", got.Code)
	assert.Equal(t, 2, got.Count)
}

func testOtherCode(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	for range 3 {
		_, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
		require.NoError(t, err)
	}
	f, err := c.AddFailure(ctx, "k", "VALIDATION_FAILED", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, "VALIDATION_FAILED", f.Code)
	assert.Equal(t, 1, f.Count)
	got, err := c.Failures(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, 1, got.Count)
}

func testClear(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	for range 2 {
		_, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
		require.NoError(t, err)
	}
	require.NoError(t, c.ClearFailures(ctx, "k"))
	got, err := c.Failures(ctx, "k")
	require.NoError(t, err)
	assert.Zero(t, got.Count)
	f, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 1, f.Count, "a new run after the clear")
}

func testFailureKeys(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	_, err := c.AddFailure(ctx, "a", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	got, err := c.Failures(ctx, "b")
	require.NoError(t, err)
	assert.Zero(t, got.Count)
	require.NoError(t, c.ClearFailures(ctx, "b"))
	got, err = c.Failures(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, 1, got.Count)
}

func testRunExpires(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	_, err := c.AddFailure(ctx, "k", "NOT_FOUND", ShortWindow)
	require.NoError(t, err)
	f, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Hour) // keeps the run's expiry
	require.NoError(t, err)
	require.Equal(t, 2, f.Count)
	require.Eventually(t, func() bool {
		got, err := c.Failures(ctx, "k")
		return err == nil && got.Count == 0
	}, expiryWait, 10*time.Millisecond, "the run must expire ShortWindow after its first failure")
	f, err = c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	assert.Equal(t, 1, f.Count)
}

func testConcurrentFailures(t *testing.T, c idempotency.FailureCounter) {
	ctx := t.Context()
	var wg sync.WaitGroup
	for range Concurrency {
		wg.Go(func() {
			_, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	got, err := c.Failures(ctx, "k")
	require.NoError(t, err)
	assert.Equal(t, Concurrency, got.Count)
}

func testFailuresCancelled(t *testing.T, c idempotency.FailureCounter) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := c.AddFailure(ctx, "k", "NOT_FOUND", time.Minute)
	require.Error(t, err)
	_, err = c.Failures(ctx, "k")
	require.Error(t, err)
}

func testRunsWatcher(t *testing.T, c idempotency.FailureCounter) {
	w, ok := c.(idempotency.RunsWatcher)
	if !ok {
		t.Skip("not an idempotency.RunsWatcher")
	}
	_, err := c.AddFailure(t.Context(), "k", "NOT_FOUND", time.Minute)
	require.NoError(t, err)
	assert.True(t, w.MayHaveRuns(), "the counter that counted a run knows it at once")
}

func testThrashCalls(t *testing.T, c idempotency.FailureCounter) {
	tc := idempotency.NewThrashCalls(c)
	runs := 0
	run := func(context.Context) (*toolerr.Error, bool) {
		runs++
		return toolerr.Default().New(toolerr.CodeNotFound, ""), true
	}
	call := idempotency.ToolCall{Principal: "p", Tool: "get_order", Arguments: []byte(`{"id":"ord-9"}`)}
	require.Nil(t, tc.Do(t.Context(), call, run))
	require.Nil(t, tc.Do(t.Context(), call, run))
	call.Arguments = []byte(`{ "id": "ord-9" }`)
	refusal := tc.Do(t.Context(), call, run)
	require.NotNil(t, refusal)
	assert.Equal(t, toolerr.CodeRepeatedFailure, refusal.Code)
	assert.Equal(t, "get_order", refusal.Tool)
	assert.Equal(t, toolerr.CodeNotFound, refusal.Details["repeated_code"])
	assert.Equal(t, 2, runs)
	call.Arguments = []byte(`{"id":"ord-8"}`)
	require.Nil(t, tc.Do(t.Context(), call, run), "other arguments run")
	assert.Equal(t, 3, runs)
}
