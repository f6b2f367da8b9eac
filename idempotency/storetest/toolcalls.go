package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// ToolCallers is the number of identical keyed calls the concurrency
// subtests of [RunToolCalls] make at once.
const ToolCallers = 50

// RunToolCalls runs the suite of [idempotency.ToolCalls] over the stores
// newStore returns (see [Run] for what newStore must do): keyed calls run
// at most once, replay byte for byte, refuse a reused key, and the
// duplicate guard blocks a keyless repeat within its window.
func RunToolCalls(t *testing.T, newStore func(t *testing.T) idempotency.Store) {
	t.Helper()
	runCases(t, newStore, toolCallCases())
}

// toolCallCases lists the subtests of [RunToolCalls].
func toolCallCases() []testCase {
	return []testCase{
		{"keyed/identical calls at once run once, all get its result (WithWait)", testCallsAtOnceWait},
		{"keyed/identical calls at once run once, the others replay or are in progress", testCallsAtOnce},
		{"keyed/a retry replays the result byte for byte", testCallReplay},
		{"keyed/equal arguments spelled otherwise replay", testCallCanonicalReplay},
		{"keyed/the same key with other arguments or another tool is refused", testCallKeyReused},
		{"keyed/numbers that differ past 2^53 are other arguments", testCallBigNumbers},
		{"keyed/a result not kept releases the key", testCallNotKept},
		{"keyed/a panic releases the key and goes on", testCallPanic},
		{"keyed/principals never share a key", testCallPrincipals},
		{"keyed/an anonymous call is refused unless SharedAnonymousScope", testCallAnonymous},
		{"keyed/a lapsed lease is taken over and the late result fenced", testCallLeaseFenced},
		{"keyed/a result over WithMaxStored is answered, not stored", testCallTooLarge},
		{"guard/a keyless repeat within the window is blocked", testGuardBlocks},
		{"guard/a repeat after the window runs", testGuardWindow},
		{"guard/a repeat while the first runs is blocked as in progress", testGuardInFlight},
		{"guard/a failure that may pass is forgotten", testGuardForgets},
		{"guard/anonymous calls are not guarded unless SharedAnonymousScope", testGuardAnonymous},
		{"guard/only mutating calls without a key are guarded", testGuardScope},
	}
}

// counter counts the runs of a tool and answers with its result.
type counter struct{ runs atomic.Int32 }

// tool returns a run that counts, waits for hold (when not nil), and
// returns result with keep.
func (c *counter) tool(result string, keep bool, hold <-chan struct{}) func(context.Context) ([]byte, bool) {
	return func(context.Context) ([]byte, bool) {
		n := c.runs.Add(1)
		if hold != nil {
			<-hold
		}
		return []byte(strings.ReplaceAll(result, "#", fmt.Sprint(n))), keep
	}
}

// newToolCalls returns a ToolCalls over s with a quiet logger and opts.
func newToolCalls(s idempotency.Store, opts ...idempotency.Option) *idempotency.ToolCalls {
	return idempotency.NewToolCalls(s, append([]idempotency.Option{idempotency.WithLogger(quiet), idempotency.WithStoreTimeout(30 * time.Second)}, opts...)...)
}

// keyedCall is a call of create_label by agent-1 with key and args.
func keyedCall(key, args string) idempotency.ToolCall {
	return idempotency.ToolCall{Principal: "agent-1", Tool: "create_label", Arguments: []byte(args), Key: key}
}

// refusalCode returns the code of e, "" when nil.
func refusalCode(e *toolerr.Error) string {
	if e == nil {
		return ""
	}
	return e.Code
}

// callAtOnce makes n identical keyed calls at once; the first to run
// holds its claim for hold.
func callAtOnce(t *testing.T, tc *idempotency.ToolCalls, c *counter, n int, hold time.Duration) (results []string, replays int, codes map[string]int) {
	t.Helper()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		start = make(chan struct{})
	)
	codes = map[string]int{}
	run := func(ctx context.Context) ([]byte, bool) {
		time.Sleep(hold)
		return c.tool(`{"label":"L-#"}`, true, nil)(ctx)
	}
	for range n {
		wg.Go(func() {
			<-start
			res, replayed, e := tc.Do(context.Background(), keyedCall("k-burst", `{"to":"Oslo"}`), true, run)
			mu.Lock()
			defer mu.Unlock()
			codes[refusalCode(e)]++
			if e == nil {
				results = append(results, string(res))
				if replayed {
					replays++
				}
			}
		})
	}
	close(start)
	wg.Wait()
	return results, replays, codes
}

func testCallsAtOnceWait(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s, idempotency.WithWait(20*time.Second))
	results, replays, codes := callAtOnce(t, tc, c, ToolCallers, 200*time.Millisecond)
	assert.EqualValues(t, 1, c.runs.Load(), "the mutation ran once")
	assert.Equal(t, map[string]int{"": ToolCallers}, codes, "every caller waited for the result")
	assert.Equal(t, ToolCallers-1, replays)
	for _, r := range results {
		assert.Equal(t, `{"label":"L-1"}`, r)
	}
}

func testCallsAtOnce(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	results, replays, codes := callAtOnce(t, tc, c, ToolCallers, 100*time.Millisecond)
	assert.EqualValues(t, 1, c.runs.Load(), "the mutation ran once")
	assert.Equal(t, ToolCallers, codes[""]+codes[toolerr.CodeIdempotencyInProgress], "%v", codes)
	assert.Equal(t, len(results)-1, replays, "one execution, the other results are replays")
	for _, r := range results {
		assert.Equal(t, `{"label":"L-1"}`, r)
	}
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-burst", `{"to":"Oslo"}`), true, c.tool(`{"label":"L-#"}`, true, nil))
	require.Nil(t, e)
	assert.True(t, replayed)
	assert.Equal(t, `{"label":"L-1"}`, string(res))
	assert.EqualValues(t, 1, c.runs.Load())
}

func testCallReplay(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	// Bytes a re-encoding would change: spacing, escapes, a big number.
	const result = "{ \"label\" : \"L-#\", \"id\": 1152921504606846977, \"note\":\"\\u00e9\\n\\u2028\" }\n"
	first, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{"to":"Oslo"}`), true, c.tool(result, true, nil))
	require.Nil(t, e)
	assert.False(t, replayed)
	for range 3 {
		again, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{"to":"Oslo"}`), true, c.tool(result, true, nil))
		require.Nil(t, e)
		assert.True(t, replayed)
		assert.Equal(t, first, again, "byte for byte")
	}
	assert.EqualValues(t, 1, c.runs.Load())
}

func testCallCanonicalReplay(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	_, _, e := tc.Do(context.Background(), keyedCall("k-1", `{"a":1,"b":[1.0,"x"],"c":{"d":null}}`), false, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-1", " {\"c\":{\"d\":null}, \"b\":[1e0,\"x\"],\n \"a\":10e-1 } "), false, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	assert.True(t, replayed)
	assert.Equal(t, `"L-1"`, string(res))
	assert.EqualValues(t, 1, c.runs.Load())
}

func testCallKeyReused(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	const secret = "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd"
	_, _, e := tc.Do(context.Background(), keyedCall("k-secret-9", `{"card":"`+secret+`","amount":100}`), true, c.tool(`{}`, true, nil))
	require.Nil(t, e)
	for _, tt := range []struct {
		call    idempotency.ToolCall
		differs string
	}{
		{keyedCall("k-secret-9", `{"card":"`+secret+`","amount":101}`), "arguments"},
		{idempotency.ToolCall{Principal: "agent-1", Tool: "refund", Arguments: []byte(`{"card":"` + secret + `","amount":100}`), Key: "k-secret-9"}, "tool"},
		{idempotency.ToolCall{Principal: "agent-1", Tool: "refund", Arguments: []byte(`{}`), Key: "k-secret-9"}, "tool_and_arguments"},
	} {
		_, replayed, e := tc.Do(context.Background(), tt.call, true, c.tool(`{}`, true, nil))
		require.NotNil(t, e, tt.differs)
		assert.False(t, replayed)
		assert.Equal(t, toolerr.CodeIdempotencyKeyReused, e.Code)
		assert.False(t, e.Retryable)
		assert.Equal(t, tt.differs, e.Details["differs"])
		out := string(e.AppendJSON(nil)) + e.Detail + e.Hint
		for _, leak := range []string{secret, "Rk7Qm2Zp", "k-secret-9", "101", "refund"} {
			assert.NotContains(t, out, leak, "the refusal echoes nothing the caller sent")
		}
	}
	assert.EqualValues(t, 1, c.runs.Load())
}

func testCallBigNumbers(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	const big, next = `{"account":1152921504606846977}`, `{"account":1152921504606846976}`
	_, _, e := tc.Do(context.Background(), keyedCall("k-1", big), true, c.tool(`{}`, true, nil))
	require.Nil(t, e)
	_, _, e = tc.Do(context.Background(), keyedCall("k-1", next), true, c.tool(`{}`, true, nil))
	require.NotNil(t, e, "2^60 and 2^60+1 are two calls, never a replay")
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, e.Code)
	assert.EqualValues(t, 1, c.runs.Load())
	// Without a key, the guard tells them apart too.
	for _, args := range []string{big, next} {
		call := keyedCall("", args)
		_, _, e := tc.Do(context.Background(), call, true, c.tool(`{}`, true, nil))
		assert.Nil(t, e, "%s is another call", args)
	}
	assert.EqualValues(t, 3, c.runs.Load())
}

func testCallNotKept(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`{"error":"rate limited #"}`, false, nil))
	require.Nil(t, e)
	assert.False(t, replayed)
	assert.Equal(t, `{"error":"rate limited 1"}`, string(res), "the caller gets the result not kept")
	res, replayed, e = tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`{"label":"L-#"}`, true, nil))
	require.Nil(t, e)
	assert.False(t, replayed, "the retry ran")
	assert.Equal(t, `{"label":"L-2"}`, string(res))
	res, replayed, _ = tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`{"label":"L-#"}`, true, nil))
	assert.True(t, replayed)
	assert.Equal(t, `{"label":"L-2"}`, string(res))
	assert.EqualValues(t, 2, c.runs.Load())
}

func testCallPanic(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	assert.PanicsWithValue(t, "boom", func() {
		_, _, _ = tc.Do(context.Background(), keyedCall("k-1", `{}`), true, func(context.Context) ([]byte, bool) {
			c.runs.Add(1)
			panic("boom")
		})
	})
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e, "the key was released")
	assert.False(t, replayed)
	assert.Equal(t, `"L-2"`, string(res))
	// The guard forgets a call that panicked too.
	assert.Panics(t, func() {
		_, _, _ = tc.Do(context.Background(), keyedCall("", `{"g":1}`), true, func(context.Context) ([]byte, bool) { panic("boom") })
	})
	_, _, e = tc.Do(context.Background(), keyedCall("", `{"g":1}`), true, c.tool(`"L-#"`, true, nil))
	assert.Nil(t, e)
}

func testCallPrincipals(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s)
	for i, p := range []string{"agent-1", "agent-2", "agent-1\x00", "agent-"} {
		call := keyedCall("k-1", `{}`)
		call.Principal = p
		res, replayed, e := tc.Do(context.Background(), call, true, c.tool(`"L-#"`, true, nil))
		require.Nil(t, e)
		assert.False(t, replayed, "principal %q gets its own execution", p)
		assert.Equal(t, fmt.Sprintf(`"L-%d"`, i+1), string(res))
	}
}

func testCallAnonymous(t *testing.T, s idempotency.Store) {
	c := &counter{}
	call := keyedCall("k-1", `{}`)
	call.Principal = ""
	for range 2 {
		_, _, e := newToolCalls(s).Do(context.Background(), call, true, c.tool(`"L-#"`, true, nil))
		require.NotNil(t, e)
		assert.Equal(t, toolerr.CodeUnauthenticated, e.Code)
	}
	assert.Zero(t, c.runs.Load(), "refused before running")
	shared := newToolCalls(s, idempotency.SharedAnonymousScope())
	_, replayed, e := shared.Do(context.Background(), call, true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	assert.False(t, replayed)
	res, replayed, e := shared.Do(context.Background(), call, true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	assert.True(t, replayed)
	assert.Equal(t, `"L-1"`, string(res))
}

func testCallLeaseFenced(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s, idempotency.WithLease(ShortLease))
	hold := make(chan struct{})
	firstDone := make(chan string)
	go func() {
		res, _, _ := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`"L-#"`, true, hold))
		firstDone <- string(res)
	}()
	require.Eventually(t, func() bool { return c.runs.Load() == 1 }, expiryWait, time.Millisecond)
	var second string
	require.Eventually(t, func() bool {
		res, _, e := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`"L-#"`, true, nil))
		second = string(res)
		return e == nil
	}, expiryWait, 10*time.Millisecond, "once the lease lapsed, a retry runs")
	assert.Equal(t, `"L-2"`, second)
	close(hold)
	assert.Equal(t, `"L-1"`, <-firstDone, "the first caller gets its own result")
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(`"L-#"`, true, nil))
	require.Nil(t, e)
	assert.True(t, replayed)
	assert.Equal(t, `"L-2"`, string(res), "the late first run did not overwrite the new owner's result")
	assert.EqualValues(t, 2, c.runs.Load())
}

func testCallTooLarge(t *testing.T, s idempotency.Store) {
	c := &counter{}
	tc := newToolCalls(s, idempotency.WithMaxStored(64))
	big := `"` + strings.Repeat("x", 100) + `#"`
	for i := range 2 {
		res, replayed, e := tc.Do(context.Background(), keyedCall("k-1", `{}`), true, c.tool(big, true, nil))
		require.Nil(t, e)
		assert.False(t, replayed, "not stored: the retry runs again")
		assert.Len(t, res, 103)
		assert.EqualValues(t, i+1, c.runs.Load())
	}
	res, replayed, e := tc.Do(context.Background(), keyedCall("k-2", `{}`), true, c.tool(`"small-#"`, true, nil))
	require.Nil(t, e)
	assert.False(t, replayed)
	again, replayed, _ := tc.Do(context.Background(), keyedCall("k-2", `{}`), true, c.tool(`"small-#"`, true, nil))
	assert.True(t, replayed, "a result within the bound is stored")
	assert.Equal(t, res, again)
}
